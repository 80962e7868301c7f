import "mantine-datatable/styles.css";
import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LobbyDetail } from "~/components/lobbies/lobby-detail.tsx";
import { ApiError } from "~/server/errors.ts";
import { LiveApplication } from "~/components/live/live-application.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Lobby" };

export default async function LobbyPage({ params }: { params: Promise<{ applicationId: string; lobbyId: string }> }) {
  const { applicationId, lobbyId } = await params;
  const user = await requireUser(`/applications/${applicationId}/lobbies/${lobbyId}`);
  // Read first: the page's live stream starts after it, so a change made while it renders still reaches it.
  const since = await api.live.head();
  await assertApplicationVisible(applicationId, lobbyId);
  // A lobby that has ended is not an error page: LobbyDetail says so.
  await Promise.all([api.lobby.get.prefetch({ applicationId, lobbyId }), api.lobby.messages.prefetchInfinite({ applicationId, lobbyId })]);
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <LiveApplication applicationId={applicationId} since={since} />
        <LobbyDetail applicationId={applicationId} lobbyId={lobbyId} />
      </HydrateClient>
    </DashboardShell>
  );
}

/** Someone else's application, an unknown one and malformed ids read as "not found"; an ended lobby does not. */
async function assertApplicationVisible(applicationId: string, lobbyId: string): Promise<void> {
  try {
    await api.lobby.get({ applicationId, lobbyId });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const isEnded = error.cause instanceof ApiError && error.cause.key === "UNKNOWN_LOBBY";
    if (isEnded) return;
    if (["NOT_FOUND", "BAD_REQUEST"].includes(error.code)) notFound();
    throw error;
  }
}
