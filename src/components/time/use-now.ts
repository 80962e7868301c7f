import { useEffect, useState } from "react";

/**
 * The current time, read again every `intervalMs`; null until mounted, so what a server
 * rendered a moment earlier never disagrees with the browser's first render.
 */
export function useNow(intervalMs: number): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
