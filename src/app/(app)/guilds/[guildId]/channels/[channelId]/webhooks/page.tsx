import type { Metadata } from "next";
import { ChannelWebhooks } from "~/components/webhooks/channel-webhooks.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Webhooks" };

export default async function ChannelWebhooksPage({ params }: { params: Promise<{ guildId: string; channelId: string }> }) {
  const { guildId, channelId } = await params;
  await requireUser(`/guilds/${guildId}/channels/${channelId}/webhooks`);
  await api.webhook.channel.prefetch({ channelId });
  return (
    <HydrateClient>
      <ChannelWebhooks guildId={guildId} channelId={channelId} />
    </HydrateClient>
  );
}
