"use client";

import { api } from "~/trpc/react.tsx";

/** After a moderation change: member pages, details, bans and the guild's member count are stale. */
export function useMemberRefresh(guildId: string): () => Promise<unknown> {
  const utils = api.useUtils();
  return () =>
    Promise.all([
      utils.member.list.invalidate({ guildId }),
      utils.member.get.invalidate({ guildId }),
      utils.member.bans.invalidate({ guildId }),
      utils.guild.get.invalidate({ guildId }),
    ]);
}
