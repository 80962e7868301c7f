import type { Metadata } from "next";
import { ChannelsManager } from "~/components/channels/channels-manager.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Channels" };

export default async function ChannelsPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/channels`);
  await Promise.all([api.channel.rows.prefetch({ guildId }), api.thread.list.prefetch({ guildId }), api.voiceStatus.list.prefetch({ guildId })]);
  return (
    <HydrateClient>
      <ChannelsManager guildId={guildId} />
    </HydrateClient>
  );
}
