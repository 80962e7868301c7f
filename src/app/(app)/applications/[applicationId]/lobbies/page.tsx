import "mantine-datatable/styles.css";
import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LobbiesManager } from "~/components/lobbies/lobbies-manager.tsx";
import { LiveApplication } from "~/components/live/live-application.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Lobbies" };

export default async function LobbiesPage({ params }: { params: Promise<{ applicationId: string }> }) {
  const { applicationId } = await params;
  const user = await requireUser(`/applications/${applicationId}/lobbies`);
  // Read first: the page's live stream starts after it, so a change made while it renders still reaches it.
  const since = await api.live.head();
  await assertApplicationVisible(applicationId);
  await Promise.all([api.application.get.prefetch({ applicationId }), api.lobby.list.prefetch({ applicationId, page: 1 })]);
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <LiveApplication applicationId={applicationId} since={since} />
        <LobbiesManager applicationId={applicationId} />
      </HydrateClient>
    </DashboardShell>
  );
}

/** Someone else's application, an unknown one and a malformed id all read as "not found". */
async function assertApplicationVisible(applicationId: string): Promise<void> {
  try {
    await api.lobby.list({ applicationId, page: 1 });
  } catch (error) {
    if (error instanceof TRPCError && ["NOT_FOUND", "BAD_REQUEST"].includes(error.code)) notFound();
    throw error;
  }
}
