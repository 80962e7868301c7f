import type { Metadata } from "next";
import { MEMBER_PAGE_SIZE } from "~/components/members/member-display.ts";
import { MembersManager } from "~/components/members/members-manager.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/members`);
  // member.rights comes hydrated from the layout (the screening banner reads it too).
  await Promise.all([api.member.list.prefetch({ guildId, after: "0", limit: MEMBER_PAGE_SIZE }), api.role.list.prefetch({ guildId })]);
  return (
    <HydrateClient>
      <MembersManager guildId={guildId} />
    </HydrateClient>
  );
}
