"use client";

import { api } from "~/trpc/react.tsx";
import { ReconnectingIndicator } from "./reconnecting-indicator.tsx";
import { useLiveStream, useReadRefresher, type LiveStreamState } from "./use-live-stream.ts";

const LOBBY_READS = ["lobby"];

/** Keeps an application's Lobbies pages live: its lobbies' events, to its owner, refetch the lobby reads. */
function useLiveApplication(applicationId: string, since: string): LiveStreamState {
  const refresh = useReadRefresher();
  return useLiveStream(
    since,
    (lastEventId, onData) => api.live.application.useSubscription({ applicationId, lastEventId }, { onData }),
    () => refresh(LOBBY_READS),
  );
}

export function LiveApplication({ applicationId, since }: { applicationId: string; since: string }) {
  const { isReconnecting } = useLiveApplication(applicationId, since);
  return <ReconnectingIndicator show={isReconnecting} />;
}
