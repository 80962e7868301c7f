import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ApplicationPage } from "~/components/applications/application-page.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
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

/** Someone else's application, an unknown one and a malformed id all read as "not found". */
async function assertApplicationVisible(applicationId: string): Promise<void> {
  try {
    await api.application.get({ applicationId });
  } catch (error) {
    if (error instanceof TRPCError && ["NOT_FOUND", "BAD_REQUEST"].includes(error.code)) notFound();
    throw error;
  }
}
