// The one way into a guild and the one way out (DESIGN.md "Joining"): every path that adds
// a member joins through joinGuild, and leaving, kicks, bans and prune share removeMembers.
import { GatewayDispatchEvents, GuildFeature, GuildMemberFlags } from "discord-api-types/v10";
import type { Guild } from "~/generated/prisma/client.ts";
import { ApiError } from "~/server/errors.ts";
import type { Change } from "~/server/events/change.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { imagePath, memberImageFolder } from "~/server/images/image.service.ts";
import { dropBotIntegrations, recordBotIntegration } from "~/server/integrations/integration-lifecycle.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { readUserCards, type UserCard } from "~/server/users/user-queries.ts";
import { memberEventData, type MemberCardRow } from "./member.dto.ts";
import { changeMemberRoles, insertMemberRow, readJoinFacts, readMemberRoleIds } from "./member-queries.ts";
import { disconnectVoiceStates } from "./voice.service.ts";

export type JoinInput = {
  guild: Pick<Guild, "id" | "features" | "invitesDisabledUntil">;
  userId: string;
  roleIds?: readonly string[];
  nick?: string | null;
  mute?: boolean;
  deaf?: boolean;
  /** Joined through a temporary invite. */
  temporary?: boolean;
  /** Who added the user, when someone did (a bot's integration names them). */
  addedBy?: string | null;
  /** Joining through an invite, which paused invites refuse. */
  throughInvite?: boolean;
  /** A bot added through OAuth2: its managed role and the scopes its integration records. */
  botIntegration?: { roleId: string; scopes: readonly string[] };
};

/** Invites are paused: INVITES_DISABLED, or an incident action's invites_disabled_until still ahead. */
function invitesPaused(guild: Pick<Guild, "features" | "invitesDisabledUntil">, now = Date.now()): boolean {
  return parseFeatures(guild.features).includes(GuildFeature.InvitesDisabled) || (guild.invitesDisabledUntil?.getTime() ?? 0) > now;
}

/**
 * Adds a user to a guild inside the caller's change: refuses joins through an invite while
 * invites are paused (403), refuses banned users (40007), makes
 * members of screening guilds pending, marks returning members DID_REJOIN, grants the
 * roles, fires Guild Member Add; a bot's application gets its integration. Null when the
 * user is already a member.
 */
export async function joinGuild(change: Change, input: JoinInput): Promise<MemberCardRow | null> {
  const { sql, emit } = change;
  const { guild, userId } = input;
  const facts = await readJoinFacts(sql, guild.id, userId);
  if (facts.isMember) return null;
  if (input.throughInvite && invitesPaused(guild)) throw new ApiError("INVITES_PAUSED");
  if (facts.isBanned) throw new ApiError("USER_BANNED");
  const user = (await readUserCards(sql, [userId])).get(userId);
  // Bots cannot complete screening (it is a user's form), so they join without it.
  const screening = parseFeatures(guild.features).includes(GuildFeature.MemberVerificationGateEnabled);
  const member = await insertMemberRow(sql, {
    guildId: guild.id,
    userId,
    nick: input.nick || null,
    mute: input.mute ?? false,
    deaf: input.deaf ?? false,
    temporary: input.temporary ?? false,
    pending: screening && !user?.bot,
    flags: facts.wasMember ? GuildMemberFlags.DidRejoin : 0,
  });
  // A concurrent join committed first (PostgreSQL; SQLite writes one change at a time).
  if (!member) return null;
  // The insert above refuses an unknown user (foreign key), so the user was read.
  const roleIds = [...new Set(input.roleIds)];
  await changeMemberRoles(sql, guild.id, userId, { add: roleIds, remove: [] });
  const row: MemberCardRow = { ...member, user: user!, roles: roleIds.length > 0 ? await readMemberRoleIds(sql, guild.id, userId) : [] };
  await emit(GatewayDispatchEvents.GuildMemberAdd, memberEventData(guild.id, row));
  // Only an application's bot user has an integration to record.
  if (user!.bot) await recordBotIntegration(change, { guildId: guild.id, userId, addedBy: input.addedBy ?? null, ...input.botIntegration });
  return row;
}

/**
 * Removes members inside the caller's change (kick, leave, ban, prune): their roles and
 * guild avatar and banner files go with them, those in voice are disconnected (Voice State Update), they are remembered for
 * DID_REJOIN, and each fires Guild Member Remove. Bots take their integrations with them.
 */
export async function removeMembers(change: Change, guildId: string, users: readonly UserCard[]): Promise<void> {
  const { tx, emit } = change;
  if (users.length === 0) return;
  const userIds = users.map((user) => user.id);
  // Whoever was in voice is disconnected, and clients must hear of it like any disconnect.
  await disconnectVoiceStates(change, await tx.voiceState.findMany({ where: { guildId, userId: { in: userIds } } }));
  // Their guild avatars and banners go with them.
  const images = await tx.member.findMany({ where: { guildId, userId: { in: userIds } }, select: { userId: true, avatar: true, banner: true } });
  await removeStoredFiles(
    change,
    images.flatMap((member) => [
      ...(member.avatar ? [imagePath(memberImageFolder(guildId, member.userId, "avatars"), member.avatar)] : []),
      ...(member.banner ? [imagePath(memberImageFolder(guildId, member.userId, "banners"), member.banner)] : []),
    ]),
  );
  await tx.member.deleteMany({ where: { guildId, userId: { in: userIds } } });
  const leftAt = new Date();
  for (const userId of userIds) {
    await tx.pastMember.upsert({ where: { guildId_userId: { guildId, userId } }, create: { guildId, userId, leftAt }, update: { leftAt } });
  }
  for (const user of users) await emit(GatewayDispatchEvents.GuildMemberRemove, { guild_id: guildId, user: toUserObject(user) });
  await dropBotIntegrations(
    change,
    guildId,
    users.filter((user) => user.bot).map((user) => user.id),
  );
}
