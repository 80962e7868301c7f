import type { Metadata } from "next";
import { BansManager } from "~/components/bans/bans-manager.tsx";
import { BAN_PAGE_SIZE } from "~/components/members/member-display.ts";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Bans" };

export default async function BansPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/bans`);
  // member.rights comes hydrated from the layout; without BAN_MEMBERS the list is not asked for.
  const rights = await api.member.rights({ guildId });
  if (rights.ban === null) await api.member.bans.prefetch({ guildId, limit: BAN_PAGE_SIZE });
  return (
    <HydrateClient>
      <BansManager guildId={guildId} />
    </HydrateClient>
  );
}
