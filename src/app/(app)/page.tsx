import type { Metadata } from "next";
import { GuildList } from "~/components/guilds/guild-list.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "./_lib/require-user.ts";

export const metadata: Metadata = { title: "Your guilds" };

export default async function HomePage() {
  const user = await requireUser("/");
  await api.guild.list.prefetch();
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <GuildList />
      </HydrateClient>
    </DashboardShell>
  );
}
