"use client";

import type { GuildNotice } from "~/server/live/live-notice.ts";
import type { ResyncNotice } from "~/server/live/live-stream.ts";
import { api } from "~/trpc/react.tsx";
import { readsChangedBy } from "./live-invalidation.ts";
import { ReconnectingIndicator } from "./reconnecting-indicator.tsx";
import { useLiveStream, useReadRefresher, type LiveStreamState } from "./use-live-stream.ts";

/**
 * Keeps every page of a guild live: one stream of what changes in the guild, as far as the
 * signed-in member may read it, and each notice refetches the reads it may change. `since` is
 * the event the pages' data was read at, so what changes before the stream opens is not missed.
 */
function useLiveGuild(guildId: string, since: string): LiveStreamState {
  const refresh = useReadRefresher();
  return useLiveStream<GuildNotice | ResyncNotice>(
    since,
    (lastEventId, onData) => api.live.guild.useSubscription({ guildId, lastEventId }, { onData }),
    (notice) => refresh(readsChangedBy(notice)),
  );
}

export function LiveGuild({ guildId, since }: { guildId: string; since: string }) {
  const { isReconnecting } = useLiveGuild(guildId, since);
  return <ReconnectingIndicator show={isReconnecting} />;
}
