import type { Metadata } from "next";
import { WidgetManager } from "~/components/widget/widget-manager.tsx";
import { publicUrl } from "~/env.ts";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Widget" };

export default async function WidgetPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/widget`);
  // The guild and the user's permissions come hydrated from the layout.
  await Promise.all([api.widget.settings.prefetch({ guildId }), api.channel.list.prefetch({ guildId })]);
  return (
    <HydrateClient>
      {/* Embed codes point at the service's public address, as invite links do. */}
      <WidgetManager guildId={guildId} baseUrl={publicUrl("")} />
    </HydrateClient>
  );
}
