import type { RouterOutputs } from "~/trpc/react.tsx";

export type MemberRow = RouterOutputs["member"]["list"]["rows"][number];
export type MemberObject = MemberRow["member"];
export type MemberDenials = MemberRow["denials"];
type UserObject = MemberObject["user"];

/** Members listed per page; the server page prefetches the same first page. */
export const MEMBER_PAGE_SIZE = 50;
/** Bans listed per page. */
export const BAN_PAGE_SIZE = 50;

/** The name people see: nickname, else global name, else username. */
export function displayName(member: { nick?: string | null; user: UserObject }): string {
  return member.nick ?? member.user.global_name ?? member.user.username;
}

export function isTimedOut(member: MemberObject, now = Date.now()): boolean {
  return member.communication_disabled_until !== null && Date.parse(member.communication_disabled_until) > now;
}

/** The member's guild avatar; no endpoint sets a user's own avatar, so without a guild one the avatar shows initials. */
export function memberAvatarUrl(guildId: string, member: MemberObject): string | null {
  return member.avatar ? `/cdn/guilds/${guildId}/users/${member.user.id}/avatars/${member.avatar}.png` : null;
}
