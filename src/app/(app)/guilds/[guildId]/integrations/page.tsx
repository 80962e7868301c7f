import type { Metadata } from "next";
import { IntegrationsManager } from "~/components/integrations/integrations-manager.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Integrations" };

export default async function IntegrationsPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/integrations`);
  // The guild and the user's permissions come hydrated from the layout.
  await Promise.all([api.integration.list.prefetch({ guildId }), api.command.guild.prefetch({ guildId })]);
  return (
    <HydrateClient>
      <IntegrationsManager guildId={guildId} />
    </HydrateClient>
  );
}
