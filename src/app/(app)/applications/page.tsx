import type { Metadata } from "next";
import { ApplicationList } from "~/components/applications/application-list.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../_lib/require-user.ts";

export const metadata: Metadata = { title: "Applications" };

export default async function ApplicationsPage() {
  const user = await requireUser("/applications");
  await api.application.list.prefetch();
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <ApplicationList />
      </HydrateClient>
    </DashboardShell>
  );
}
