import { InviteType, type GatewayInviteCreateDispatchData } from "discord-api-types/v10";
import { publicUrl } from "~/env.ts";
import type { Channel, Emoji, Guild, Invite, Role, User } from "~/generated/prisma/client.ts";
import { shownWelcomeScreen } from "~/server/guild-config/welcome-screen.service.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { toRoleObject } from "~/server/roles/role.dto.ts";
import { toUserObject } from "~/server/users/user.dto.ts";

export type InviteRow = Invite & { guild: Guild; channel: Channel };
export type InviteCounts = { members: number; presences: number };

/** The role ids an invite grants, as stored. */
export function inviteRoleIds(invite: Pick<Invite, "roleIds">): string[] {
  return JSON.parse(invite.roleIds) as string[];
}

/** The public invite page of a code, where people open and accept it. */
export function inviteUrl(code: string): string {
  return publicUrl(`/invite/${encodeURIComponent(code)}`);
}

/** Whether an invite still admits anyone at `now`: not past max_age, not at max_uses. */
export function isInviteLive(invite: Pick<Invite, "expiresAt" | "maxUses" | "uses">, now: Date): boolean {
  if (invite.expiresAt && invite.expiresAt.getTime() <= now.getTime()) return false;
  return invite.maxUses === 0 || invite.uses < invite.maxUses;
}

/**
 * The invite object (spec 2.1) for a guild invite: the partial guild and channel, inviter,
 * targets, the roles granted (only the fields spec 2.1 names), counts when asked, and the
 * metadata fields when the caller may see them.
 */
export function toInviteObject(
  row: InviteRow,
  extra: { inviter: User | null; targetUser: User | null; roles: readonly Role[]; emojis: readonly Emoji[]; counts?: InviteCounts; withMetadata?: boolean },
) {
  const { guild, channel } = row;
  const granted = new Set(inviteRoleIds(row));
  const welcomeScreen = shownWelcomeScreen(guild, extra.emojis);
  return {
    type: InviteType.Guild,
    code: row.code,
    guild_id: guild.id,
    guild: {
      id: guild.id,
      name: guild.name,
      splash: guild.splash,
      banner: guild.banner,
      description: guild.description,
      icon: guild.icon,
      features: parseFeatures(guild.features),
      verification_level: guild.verificationLevel,
      vanity_url_code: guild.vanityUrlCode,
      nsfw_level: guild.nsfwLevel,
      nsfw: guild.nsfwLevel === 1 || guild.nsfwLevel === 3,
      premium_subscription_count: guild.premiumSubscriptionCount,
      ...(welcomeScreen && { welcome_screen: welcomeScreen }),
    },
    channel: { id: channel.id, type: channel.type, name: channel.name },
    ...(extra.inviter && { inviter: toUserObject(extra.inviter) }),
    expires_at: row.expiresAt?.toISOString() ?? null,
    flags: row.flags,
    ...(row.targetType !== null && { target_type: row.targetType }),
    ...(extra.targetUser && { target_user: toUserObject(extra.targetUser) }),
    roles: extra.roles
      .filter((role) => granted.has(role.id))
      .map((role) => {
        const { id, name, position, color, colors, icon, unicode_emoji } = toRoleObject(role);
        return { id, name, position, color, colors, icon, unicode_emoji };
      }),
    ...(extra.counts && { approximate_member_count: extra.counts.members, approximate_presence_count: extra.counts.presences }),
    ...(extra.withMetadata && {
      uses: row.uses,
      max_uses: row.maxUses,
      max_age: row.maxAge,
      temporary: row.temporary,
      created_at: row.createdAt.toISOString(),
    }),
  };
}

export type InviteObject = ReturnType<typeof toInviteObject>;

/** INVITE_CREATE's payload for a new invite: its settings, who made it, whose stream it shows, the roles it grants. */
export function toInviteCreateEventData(row: Invite, extra: { inviter: User | null; targetUser: User | null }): GatewayInviteCreateDispatchData {
  const roleIds = inviteRoleIds(row);
  return {
    channel_id: row.channelId,
    code: row.code,
    created_at: row.createdAt.toISOString(),
    guild_id: row.guildId,
    ...(extra.inviter && { inviter: toUserObject(extra.inviter) }),
    max_age: row.maxAge,
    max_uses: row.maxUses,
    ...(row.targetType !== null && { target_type: row.targetType }),
    ...(extra.targetUser && { target_user: toUserObject(extra.targetUser) }),
    temporary: row.temporary,
    uses: 0,
    expires_at: row.expiresAt?.toISOString() ?? null,
    ...(roleIds.length > 0 && { role_ids: roleIds }),
  };
}
