import type { Metadata } from "next";
import { AuthorizedApps } from "~/components/oauth2/authorized-apps.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Authorized apps" };

export default async function AuthorizedAppsPage() {
  const user = await requireUser("/account/authorized-apps");
  await api.oauth2.authorizedApps.prefetch();
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <AuthorizedApps />
      </HydrateClient>
    </DashboardShell>
  );
}
