import "@mantine/dates/styles.css";
import "mantine-datatable/styles.css";
import { TRPCError } from "@trpc/server";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { GuildNavbar } from "~/components/guild/guild-navbar.tsx";
import { LiveGuild } from "~/components/live/live-guild.tsx";
import { ScreeningBanner } from "~/components/guild/screening-banner.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { auth } from "~/server/auth/session.ts";
import { api, HydrateClient } from "~/trpc/server.ts";

export default async function GuildLayout({ children, params }: { children: ReactNode; params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const session = await auth();
  // Each page sends signed-out visitors to sign in and back to that exact page.
  if (!session) return children;
  const { user } = session;
  // Read first: the pages' live stream starts after it, so a change made while they render still reaches them.
  const since = await api.live.head();
  await assertGuildVisible(guildId);
  // Every section uses these (the screening banner reads member.rights); the pages prefetch only their own data.
  await Promise.all([api.guild.get.prefetch({ guildId }), api.guild.sectionDenials.prefetch({ guildId }), api.member.rights.prefetch({ guildId })]);
  // Deliberately no loading.tsx: a section streamed into a Suspense boundary under AppShell is
  // thrown away and rendered again on the client when AppShell re-renders during hydration, while
  // the server's copy waits hidden in the document for React's delayed reveal: every field, button
  // and heading is briefly there twice.
  return (
    <HydrateClient>
      <DashboardShell user={user} navbar={<GuildNavbar guildId={guildId} />}>
        <LiveGuild key={guildId} guildId={guildId} since={since} />
        <ScreeningBanner guildId={guildId} />
        {children}
      </DashboardShell>
    </HydrateClient>
  );
}

/** Unknown guilds, guilds the user is not in, and malformed ids all read as "not found". */
async function assertGuildVisible(guildId: string): Promise<void> {
  try {
    await api.guild.sectionDenials({ guildId });
  } catch (error) {
    if (error instanceof TRPCError && ["NOT_FOUND", "FORBIDDEN", "BAD_REQUEST"].includes(error.code)) notFound();
    throw error;
  }
}
