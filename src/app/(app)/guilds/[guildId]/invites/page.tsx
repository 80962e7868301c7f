import type { Metadata } from "next";
import { InvitesManager } from "~/components/invites/invites-manager.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Invites" };

export default async function InvitesPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/invites`);
  // The guild and the user's permissions come hydrated from the layout.
  await api.invite.list.prefetch({ guildId });
  return (
    <HydrateClient>
      <InvitesManager guildId={guildId} />
    </HydrateClient>
  );
}
