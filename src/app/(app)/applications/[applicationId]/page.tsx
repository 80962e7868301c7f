import type { Metadata } from "next";
import { ApplicationPage } from "~/components/applications/application-page.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { assertApplicationVisible } from "./_lib/application-visible.ts";
import { requireUser } from "../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Application" };

export default async function ApplicationSettingsPage({ params }: { params: Promise<{ applicationId: string }> }) {
  const { applicationId } = await params;
  const user = await requireUser(`/applications/${applicationId}`);
  await assertApplicationVisible(applicationId);
  await Promise.all([api.application.get.prefetch({ applicationId }), api.inspector.available.prefetch()]);
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <ApplicationPage applicationId={applicationId} />
      </HydrateClient>
    </DashboardShell>
  );
}
