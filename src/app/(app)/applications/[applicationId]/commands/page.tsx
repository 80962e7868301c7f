import "mantine-datatable/styles.css";
import type { Metadata } from "next";
import { ApplicationCommands } from "~/components/commands/application-commands.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { assertApplicationVisible } from "../_lib/application-visible.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Commands" };

/** The application's registered commands, global and per guild. */
export default async function ApplicationCommandsPage({ params }: { params: Promise<{ applicationId: string }> }) {
  const { applicationId } = await params;
  const user = await requireUser(`/applications/${applicationId}/commands`);
  await assertApplicationVisible(applicationId);
  await Promise.all([api.application.get.prefetch({ applicationId }), api.inspector.available.prefetch(), api.command.application.prefetch({ applicationId })]);
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <ApplicationCommands applicationId={applicationId} />
      </HydrateClient>
    </DashboardShell>
  );
}
