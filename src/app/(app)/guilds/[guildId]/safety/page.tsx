import type { Metadata } from "next";
import { SafetyManager } from "~/components/safety/safety-manager.tsx";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Safety" };

export default async function SafetyPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/safety`);
  // The guild (with its incidents data) and the user's permissions come hydrated from the layout.
  return <SafetyManager guildId={guildId} />;
}
