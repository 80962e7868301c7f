import type { Metadata } from "next";
import { GuildSettings } from "~/components/guild-settings/guild-settings-form.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Guild settings" };

export default async function GuildSettingsPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}`);
  // The guild and the user's permissions come hydrated from the layout.
  await api.channel.list.prefetch({ guildId });
  return (
    <HydrateClient>
      <GuildSettings guildId={guildId} />
    </HydrateClient>
  );
}
