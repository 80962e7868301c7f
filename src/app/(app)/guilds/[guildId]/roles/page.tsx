import type { Metadata } from "next";
import { RolesManager } from "~/components/roles/roles-manager.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Roles" };

export default async function RolesPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/roles`);
  await api.role.rows.prefetch({ guildId });
  return (
    <HydrateClient>
      <RolesManager guildId={guildId} />
    </HydrateClient>
  );
}
