import type { Metadata } from "next";
import { ChannelMessages } from "~/components/messages/channel-messages.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Messages" };

export default async function ChannelMessagesPage({ params }: { params: Promise<{ guildId: string; channelId: string }> }) {
  const { guildId, channelId } = await params;
  await requireUser(`/guilds/${guildId}/channels/${channelId}/messages`);
  await api.message.list.prefetchInfinite({ channelId });
  return (
    <HydrateClient>
      <ChannelMessages guildId={guildId} channelId={channelId} />
    </HydrateClient>
  );
}
