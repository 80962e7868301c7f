import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Inspector } from "~/components/applications/inspector/inspector.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { assertApplicationVisible } from "../_lib/application-visible.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Inspector" };

/** An application's recorded calls, live (test mode only: otherwise the page does not exist). */
export default async function InspectorPage({ params }: { params: Promise<{ applicationId: string }> }) {
  const { applicationId } = await params;
  const user = await requireUser(`/applications/${applicationId}/inspector`);
  if (!(await api.inspector.available())) notFound();
  await assertApplicationVisible(applicationId);
  await Promise.all([api.application.get.prefetch({ applicationId }), api.inspector.available.prefetch()]);
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <Inspector applicationId={applicationId} />
      </HydrateClient>
    </DashboardShell>
  );
}
