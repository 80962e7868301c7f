import type { Metadata } from "next";
import { WelcomeScreenEditor } from "~/components/welcome-screen/welcome-screen-editor.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Welcome screen" };

export default async function WelcomeScreenPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/welcome-screen`);
  // The guild and the user's permissions come hydrated from the layout.
  await Promise.all([api.guildConfig.welcomeScreen.prefetch({ guildId }), api.channel.list.prefetch({ guildId })]);
  return (
    <HydrateClient>
      <WelcomeScreenEditor guildId={guildId} />
    </HydrateClient>
  );
}
