"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { EVERY_READ } from "./live-invalidation.ts";

/** Events that come together (a bulk ban, a reorder) are refetched for once, after this quiet spell. */
const BATCH_MS = 100;
/** After a failure the stream cannot recover from by itself (the server answered with an error), it is opened again after this. */
const REOPEN_MS = 3_000;

/** What a page's stream tells it: its state for the indicator, and where it resumes from. */
export type LiveStreamState = {
  /** The stream was live and is down: the page may be behind until it reconnects and catches up. */
  isReconnecting: boolean;
};

/**
 * Refetches the mounted queries of the tRPC routers that notices name, a batch at a time:
 * tRPC query keys begin with [router, procedure].
 */
export function useReadRefresher(): (routers: readonly string[]) => void {
  const queryClient = useQueryClient();
  const pending = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(
    (routers) => {
      for (const router of routers) pending.current.add(router);
      timer.current ??= setTimeout(() => {
        timer.current = null;
        const changed = new Set(pending.current);
        pending.current.clear();
        void queryClient.invalidateQueries(
          changed.has(EVERY_READ) ? undefined : { predicate: (query) => changed.has(String((query.queryKey[0] as unknown[] | undefined)?.[0])) },
        );
      }, BATCH_MS);
    },
    [queryClient],
  );
}

/** The subscription's state as tRPC reports it. */
type SubscriptionState = {
  status: "idle" | "connecting" | "pending" | "error";
  error: { data?: { httpStatus?: number } | null } | null;
  reset: () => void;
};

/**
 * One live stream of a page: `subscribe` opens it after `since` (where the page's data was
 * read) and hands each notice to `onNotice`. The last event id is kept, so a stream the
 * browser cannot resume by itself (the server answered with an error) is opened again from
 * there; and the page is told when a stream that was live is down.
 */
export function useLiveStream<T>(
  initialSince: string,
  subscribe: (since: string, onData: (envelope: { id: string; data: T }) => void) => SubscriptionState,
  onNotice: (notice: T) => void,
): LiveStreamState {
  const [since, setSince] = useState(initialSince);
  const lastId = useRef(initialSince);
  const [wasLive, setWasLive] = useState(false);
  const { status, error, reset } = subscribe(since, ({ id, data }) => {
    lastId.current = id;
    onNotice(data);
  });
  if (status === "pending" && !wasLive) setWasLive(true);
  // A refusal (no longer a member, or signed out) will not change on a retry.
  const httpStatus = error?.data?.httpStatus;
  const isRefused = status === "error" && typeof httpStatus === "number" && httpStatus >= 400 && httpStatus < 500;
  useEffect(() => {
    if (status !== "error" || isRefused) return;
    const timer = setTimeout(() => (lastId.current === since ? reset() : setSince(lastId.current)), REOPEN_MS);
    return () => clearTimeout(timer);
  }, [status, isRefused, since, reset]);
  return { isReconnecting: wasLive && (status === "connecting" || (status === "error" && !isRefused)) };
}
