import type { Metadata } from "next";
import { GuildMessageSearch } from "~/components/messages/guild-message-search.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Search messages" };

export default async function GuildMessageSearchPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/channels/search`);
  await api.channel.list.prefetch({ guildId });
  return (
    <HydrateClient>
      <GuildMessageSearch guildId={guildId} />
    </HydrateClient>
  );
}
