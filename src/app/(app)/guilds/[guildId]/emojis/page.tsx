import type { Metadata } from "next";
import { ExpressionsManager } from "~/components/expressions/expressions-manager.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Emoji & Stickers" };

export default async function EmojisPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/emojis`);
  await Promise.all([api.emoji.rows.prefetch({ guildId }), api.sticker.rows.prefetch({ guildId })]);
  return (
    <HydrateClient>
      <ExpressionsManager guildId={guildId} />
    </HydrateClient>
  );
}
