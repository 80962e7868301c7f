import { AuditLogEvent, GatewayDispatchEvents, PermissionFlagsBits } from "discord-api-types/v10";
import type { Emoji } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Tx } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { storeFileAt } from "~/server/images/image.service.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { toUserObject, type UserObject } from "~/server/users/user.dto.ts";
import { emojiImagePath, toEmojiObject, type EmojiObject } from "./emoji.dto.ts";
import { decodeEmojiImage } from "./emoji-images.ts";
import type { TGuildEmojiCreateBody, TGuildEmojiModifyBody } from "./emoji.schema.ts";
import { createExpressionDenial, emojiSlotDenial, manageExpressionDenial } from "./expression-rules.ts";

const EMOJI_AUDIT_KEYS = ["name", "roles"] as const;

/** Who uploaded an emoji or sticker is shown to members who may add or manage them. */
export function seesUploaders(access: GuildAccess): boolean {
  return (
    hasPermission(access.permissions, PermissionFlagsBits.CreateGuildExpressions) ||
    hasPermission(access.permissions, PermissionFlagsBits.ManageGuildExpressions)
  );
}

/** The uploaders of `rows`, by id, as user objects. */
export async function uploadersOf(db: Tx, rows: readonly { userId: string | null }[]): Promise<Map<string, UserObject>> {
  const ids = [...new Set(rows.flatMap((row) => (row.userId ? [row.userId] : [])))];
  const users = ids.length > 0 ? await db.user.findMany({ where: { id: { in: ids } } }) : [];
  return new Map(users.map((user) => [user.id, toUserObject(user)]));
}

function roleIdsOf(access: GuildAccess): Set<string> {
  return new Set(access.roles.map((role) => role.id));
}

function findEmoji(access: GuildAccess, emojiId: string): Emoji {
  const row = access.state.expressions.emojis.find((emoji) => emoji.id === emojiId);
  if (!row) throw new ApiError("UNKNOWN_EMOJI");
  return row;
}

/** GET /guilds/{guild.id}/emojis: members; the uploader shown to those who may add or manage emojis. */
export async function listGuildEmojis(ctx: ServiceContext, input: { guildId: string }): Promise<EmojiObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const rows = access.state.expressions.emojis;
  const uploaders = seesUploaders(access) ? await uploadersOf(ctx.db, rows) : new Map<string, UserObject>();
  const roleIds = roleIdsOf(access);
  return rows.map((row) => toEmojiObject(row, roleIds, row.userId ? uploaders.get(row.userId) : undefined));
}

/** GET /guilds/{guild.id}/emojis/{emoji.id}: members; 10014 for an emoji not of this guild. */
export async function getGuildEmoji(ctx: ServiceContext, input: { guildId: string; emojiId: string }): Promise<EmojiObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const row = findEmoji(access, input.emojiId);
  const uploader = seesUploaders(access) && row.userId ? (await uploadersOf(ctx.db, [row])).get(row.userId) : undefined;
  return toEmojiObject(row, roleIdsOf(access), uploader);
}

/** The roles an emoji is limited to: each must be one of the guild's (10011), @everyone excepted, as it means everyone. */
function checkedRoles(access: GuildAccess, roles: readonly string[] | null | undefined): string[] {
  const ids = [...new Set(roles ?? [])].filter((id) => id !== access.guild.id);
  if (ids.some((id) => !access.roles.some((role) => role.id === id))) throw new ApiError("UNKNOWN_ROLE");
  return ids;
}

/** Every emoji of the guild as the change leaves them: GUILD_EMOJIS_UPDATE carries the whole list. */
async function emitEmojisUpdate(change: Change, access: GuildAccess): Promise<void> {
  const rows = await change.tx.emoji.findMany({ where: { guildId: access.guild.id }, orderBy: { id: "asc" } });
  const roleIds = roleIdsOf(access);
  await change.emit(GatewayDispatchEvents.GuildEmojisUpdate, { guild_id: access.guild.id, emojis: rows.map((row) => toEmojiObject(row, roleIds)) });
}

/**
 * POST /guilds/{guild.id}/emojis: needs CREATE_GUILD_EXPRESSIONS; the image at most 256 KiB;
 * static and animated emojis each have the guild's tier's slots (30008 when full).
 */
export async function createGuildEmoji(ctx: ServiceContext, input: { guildId: string; body: TGuildEmojiCreateBody }): Promise<EmojiObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(createExpressionDenial(access));
  const image = decodeEmojiImage(input.body.image);
  const roles = checkedRoles(access, input.body.roles);
  return runChange(ctx, async (change) => {
    const guildId = access.guild.id;
    // Counted inside the change: two uploads at once cannot both take the last slot.
    const [animated, all] = await Promise.all([change.tx.emoji.count({ where: { guildId, animated: true } }), change.tx.emoji.count({ where: { guildId } })]);
    enforce(emojiSlotDenial(access.guild.premiumTier, { static: all - animated, animated }, image.animated));
    const id = newId();
    const path = emojiImagePath(id);
    await storeFileAt(change.tx, path, image);
    const row = await change.tx.emoji.create({
      data: { id, guildId, name: input.body.name, animated: image.animated, userId: ctx.actor.userId, roles: JSON.stringify(roles), image: path },
    });
    const emoji = toEmojiObject(row, roleIdsOf(access));
    await change.audit({ guildId, actionType: AuditLogEvent.EmojiCreate, targetId: id, changes: diffChanges({}, { name: emoji.name }, ["name"]) });
    await emitEmojisUpdate(change, access);
    const uploader = (await uploadersOf(change.tx, [row])).get(ctx.actor.userId);
    return { ...emoji, ...(uploader && { user: uploader }) };
  });
}

/** PATCH /guilds/{guild.id}/emojis/{emoji.id}: its name and roles; MANAGE_GUILD_EXPRESSIONS, or CREATE_GUILD_EXPRESSIONS for one's own. */
export async function modifyGuildEmoji(ctx: ServiceContext, input: { guildId: string; emojiId: string; body: TGuildEmojiModifyBody }): Promise<EmojiObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const current = findEmoji(access, input.emojiId);
  enforce(manageExpressionDenial(access, current.userId));
  const roles = input.body.roles === undefined ? undefined : checkedRoles(access, input.body.roles);
  return runChange(ctx, async (change) => {
    const data = { ...(input.body.name !== undefined && { name: input.body.name }), ...(roles !== undefined && { roles: JSON.stringify(roles) }) };
    const updated = await change.tx.emoji.updateManyAndReturn({ where: { id: current.id, guildId: access.guild.id }, data });
    // Deleted since the guild's state was read.
    if (updated.length === 0) throw new ApiError("UNKNOWN_EMOJI");
    const roleIds = roleIdsOf(access);
    const emoji = toEmojiObject(updated[0]!, roleIds);
    const changes = diffChanges(toEmojiObject(current, roleIds), emoji, EMOJI_AUDIT_KEYS);
    if (changes.length > 0) await change.audit({ guildId: access.guild.id, actionType: AuditLogEvent.EmojiUpdate, targetId: emoji.id, changes });
    await emitEmojisUpdate(change, access);
    const uploader = current.userId ? (await uploadersOf(change.tx, [current])).get(current.userId) : undefined;
    return { ...emoji, ...(uploader && { user: uploader }) };
  });
}

/** DELETE /guilds/{guild.id}/emojis/{emoji.id}: as modifying; its image goes with it. */
export async function deleteGuildEmoji(ctx: ServiceContext, input: { guildId: string; emojiId: string }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const current = findEmoji(access, input.emojiId);
  enforce(manageExpressionDenial(access, current.userId));
  await runChange(ctx, async (change) => {
    const { count } = await change.tx.emoji.deleteMany({ where: { id: current.id, guildId: access.guild.id } });
    if (count === 0) throw new ApiError("UNKNOWN_EMOJI");
    await removeStoredFiles(change, [current.image]);
    await change.audit({
      guildId: access.guild.id,
      actionType: AuditLogEvent.EmojiDelete,
      targetId: current.id,
      changes: diffChanges({ name: current.name }, {}, ["name"]),
    });
    await emitEmojisUpdate(change, access);
  });
}
