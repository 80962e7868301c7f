import type { APIGuildMember, APIGuildMemberNoUser, GatewayGuildMemberAddDispatchData } from "discord-api-types/v10";
import type { Member, User } from "~/generated/prisma/client.ts";
import type { UserCard } from "~/server/users/user-queries.ts";
import { toUserObject } from "~/server/users/user.dto.ts";

/** What a member object is built from: one query with the user and role ids. */
export const MEMBER_INCLUDE = { user: true, roles: { select: { roleId: true } } } as const;

export type MemberRow = Member & { user: User; roles: { roleId: string }[] };

/** What a member object shows: a member row with as much of the user as the user object shows. */
export type MemberCardRow = Member & { user: UserCard; roles: readonly { roleId: string }[] };

/** The guild member object (spec 2.3), as GET and the member events carry it. */
export function toMemberObject(row: MemberCardRow) {
  return { user: toUserObject(row.user), ...toMemberFields(row) } satisfies APIGuildMember;
}

/** The member object's own fields, without its user (what events carry beside a message's author). */
export function toMemberFields(row: Member & { roles: readonly { roleId: string }[] }) {
  return {
    nick: row.nick,
    avatar: row.avatar,
    banner: row.banner,
    roles: row.roles.map((r) => r.roleId),
    joined_at: row.joinedAt.toISOString(),
    premium_since: row.premiumSince?.toISOString() ?? null,
    deaf: row.deaf,
    mute: row.mute,
    flags: row.flags,
    pending: row.pending,
    communication_disabled_until: row.communicationDisabledUntil?.toISOString() ?? null,
    avatar_decoration_data: null,
    collectibles: null,
  } satisfies APIGuildMemberNoUser;
}

export type MemberObject = ReturnType<typeof toMemberObject>;

/** Gateway payloads for member events (GUILD_MEMBER_ADD, GUILD_MEMBER_UPDATE) name their guild. */
export function memberEventData(guildId: string, row: MemberCardRow) {
  return { guild_id: guildId, ...toMemberObject(row) } satisfies GatewayGuildMemberAddDispatchData;
}
