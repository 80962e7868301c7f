/**
 * The dashboard's one way of writing moments and time left: an exact date-time ("21 Nov 2026,
 * 05:53"), a relative one ("3 hours ago", "in 2 days") and a countdown ("2 h 14 min").
 */

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** The exact moment, e.g. "21 Nov 2026, 05:53"; in `timeZone` when given, else the reader's own. */
export function formatDateTime(value: Date | string, timeZone?: string): string {
  const key = timeZone ?? "";
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
    dateTimeFormats.set(key, format);
  }
  return format.format(toDate(value));
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The largest unit that fits, with its length; months and years are the calendar's average. */
const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365.25 * DAY],
  ["month", 30.44 * DAY],
  ["week", 7 * DAY],
  ["day", DAY],
  ["hour", HOUR],
  ["minute", MINUTE],
];

/** "3 hours ago", "in 2 days", "yesterday"; "just now" within a minute either side. */
export function formatRelative(value: Date | string, now: number): string {
  const diff = toDate(value).getTime() - now;
  if (Math.abs(diff) < MINUTE) return "just now";
  const [unit, length] = RELATIVE_UNITS.find(([, ms]) => Math.abs(diff) >= ms) ?? ["minute", MINUTE];
  return relative.format(Math.trunc(diff / length), unit);
}

/**
 * The countdown to `until`: "3 days 4 h", "2 h 14 min", "14 min 05 s", "42 s". Each part is
 * rounded up to the last unit shown, so a one-day invite reads "1 day" when made; null once
 * `until` has passed.
 */
export function formatTimeLeft(until: Date | string, now: number): string | null {
  const left = toDate(until).getTime() - now;
  if (left <= 0) return null;
  if (left <= HOUR) {
    const seconds = Math.ceil(left / SECOND);
    const minutes = Math.floor(seconds / 60);
    if (minutes === 0) return `${seconds} s`;
    if (minutes === 60) return "1 h";
    return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  }
  if (left <= DAY) {
    const minutes = Math.ceil(left / MINUTE);
    const hours = Math.floor(minutes / 60);
    if (hours === 24) return "1 day";
    return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  }
  const hours = Math.ceil(left / HOUR);
  const days = Math.floor(hours / 24);
  const dayText = `${days} ${days === 1 ? "day" : "days"}`;
  return hours % 24 === 0 ? dayText : `${dayText} ${hours % 24} h`;
}

function toDate(value: Date | string): Date {
  return typeof value === "string" ? new Date(value) : value;
}
