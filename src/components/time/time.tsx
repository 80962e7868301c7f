"use client";

import type { ReactNode } from "react";
import { formatDateTime, formatRelative, formatTimeLeft } from "./time-format.ts";
import { useNow } from "./use-now.ts";

/** Relative times move by the minute; countdowns by the second. */
const RELATIVE_TICK_MS = 30_000;
const COUNTDOWN_TICK_MS = 1000;

type Moment = Date | string;

const toDate = (value: Moment) => (typeof value === "string" ? new Date(value) : value);

/**
 * A moment: relative ("3 hours ago") by default, or the exact date-time with `exact`; the exact
 * one, in the reader's time zone, on hover. Until the page has mounted (and on the server) it
 * reads in UTC, so the server's render and the browser's first one agree.
 */
export function Time({ value, exact = false }: { value: Moment; exact?: boolean }) {
  const now = useNow(RELATIVE_TICK_MS);
  const date = toDate(value);
  if (now === null) return <time dateTime={date.toISOString()}>{`${formatDateTime(date, "UTC")} UTC`}</time>;
  const full = formatDateTime(date);
  return (
    <time dateTime={date.toISOString()} title={full}>
      {exact ? full : formatRelative(date, now)}
    </time>
  );
}

/**
 * The time left until `until`, counting down ("2 h 14 min", or what `children` makes of it);
 * `ended` once it has passed, `never` without an end. The end itself shows on hover.
 */
export function TimeLeft({
  until,
  ended,
  never = "Never",
  children = (left) => left,
}: {
  until: Moment | null;
  ended: ReactNode;
  never?: ReactNode;
  children?: (left: string) => ReactNode;
}) {
  const now = useNow(COUNTDOWN_TICK_MS);
  if (until === null) return <>{never}</>;
  const date = toDate(until);
  if (now === null) return <time dateTime={date.toISOString()}>…</time>;
  const left = formatTimeLeft(date, now);
  if (left === null) return <>{ended}</>;
  return (
    <time dateTime={date.toISOString()} title={`Until ${formatDateTime(date)}`}>
      {children(left)}
    </time>
  );
}
