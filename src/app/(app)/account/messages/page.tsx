import type { Metadata } from "next";
import { DirectMessages } from "~/components/dms/direct-messages.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Direct messages" };

export default async function DirectMessagesPage() {
  const user = await requireUser("/account/messages");
  await api.dm.list.prefetch();
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <DirectMessages />
      </HydrateClient>
    </DashboardShell>
  );
}
