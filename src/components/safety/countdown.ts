/** "5h 03m 09s" for the time between now and `until`; null once it has passed. */
export function formatTimeLeft(until: string | null, now: number): string | null {
  if (!until) return null;
  const left = Math.floor((Date.parse(until) - now) / 1000);
  if (left <= 0) return null;
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = left % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return hours > 0 ? `${hours}h ${pad(minutes)}m ${pad(seconds)}s` : `${minutes}m ${pad(seconds)}s`;
}

/** Pause lengths offered; the platform allows at most 24 hours ahead. */
export const PAUSE_DURATIONS = [
  { value: "30", label: "30 minutes" },
  { value: "60", label: "1 hour" },
  { value: "120", label: "2 hours" },
  { value: "360", label: "6 hours" },
  { value: "720", label: "12 hours" },
  { value: "1440", label: "24 hours" },
] as const;
