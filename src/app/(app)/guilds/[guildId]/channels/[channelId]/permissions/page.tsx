import type { Metadata } from "next";
import { ChannelPermissionsEditor } from "~/components/channel-permissions/channel-permissions-editor.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Channel permissions" };

export default async function ChannelPermissionsPage({ params }: { params: Promise<{ guildId: string; channelId: string }> }) {
  const { guildId, channelId } = await params;
  await requireUser(`/guilds/${guildId}/channels/${channelId}/permissions`);
  await api.channel.permissions.prefetch({ channelId });
  return (
    <HydrateClient>
      <ChannelPermissionsEditor guildId={guildId} channelId={channelId} />
    </HydrateClient>
  );
}
