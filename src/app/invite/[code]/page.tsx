import { TRPCError } from "@trpc/server";
import { GuildFeature } from "discord-api-types/v10";
import type { Metadata } from "next";
import { PublicInvite, type PublicInviteView } from "~/components/invites/public-invite.tsx";
import { auth } from "~/server/auth/session.ts";
import { api } from "~/trpc/server.ts";

export const metadata: Metadata = { title: "Invite" };

/** The public invite page, outside the dashboard shell: anyone may open it, signed in or not. */
export default async function InvitePage({ params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  const session = await auth();
  const invite = await api.invite.get({ code, withCounts: true }).catch((error: unknown) => {
    // Unknown, expired and used-up invites are all 10006; a malformed code is no invite either.
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return null;
    throw error;
  });
  if (!invite) return <PublicInvite code={code} invite={null} initialView="invalid" signedIn={session !== null} />;
  const isMember = session ? (await api.guild.list()).some((guild) => guild.id === invite.guild.id) : false;
  const paused = invite.guild.features.includes(GuildFeature.InvitesDisabled);
  const view: PublicInviteView = isMember ? "member" : paused ? "paused" : "invite";
  return <PublicInvite code={code} invite={invite} initialView={view} signedIn={session !== null} />;
}
