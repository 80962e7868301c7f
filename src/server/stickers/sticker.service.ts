import { AuditLogEvent, GatewayDispatchEvents, GuildFeature } from "discord-api-types/v10";
import type { Sticker } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { seesUploaders, uploadersOf } from "~/server/emojis/emoji.service.ts";
import { createExpressionDenial, manageExpressionDenial, stickerSlotDenial } from "~/server/emojis/expression-rules.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { storeFileAt } from "~/server/images/image.service.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { accessIn, loadGuildAccess, loadGuildState, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import type { UserObject } from "~/server/users/user.dto.ts";
import { readStickerFile } from "./sticker-file.ts";
import { stickerFilePath, toStickerObject, type StickerObject } from "./sticker.dto.ts";
import type { TStickerCreateBody, TStickerModifyBody } from "./sticker.schema.ts";

const STICKER_AUDIT_KEYS = ["name", "description", "tags"] as const;

function findSticker(access: GuildAccess, stickerId: string): Sticker {
  const row = access.state.expressions.stickers.find((sticker) => sticker.id === stickerId);
  if (!row) throw new ApiError("UNKNOWN_STICKER");
  return row;
}

async function withUploader(ctx: ServiceContext, access: GuildAccess, row: Sticker): Promise<StickerObject> {
  const uploader = seesUploaders(access) && row.userId ? (await uploadersOf(ctx.db, [row])).get(row.userId) : undefined;
  return toStickerObject(row, uploader);
}

/** GET /guilds/{guild.id}/stickers: members; the uploader shown to those who may add or manage stickers. */
export async function listGuildStickers(ctx: ServiceContext, input: { guildId: string }): Promise<StickerObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const rows = access.state.expressions.stickers;
  const uploaders = seesUploaders(access) ? await uploadersOf(ctx.db, rows) : new Map<string, UserObject>();
  return rows.map((row) => toStickerObject(row, row.userId ? uploaders.get(row.userId) : undefined));
}

/** GET /guilds/{guild.id}/stickers/{sticker.id}: members; 10060 for a sticker not of this guild. */
export async function getGuildSticker(ctx: ServiceContext, input: { guildId: string; stickerId: string }): Promise<StickerObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  return withUploader(ctx, access, findSticker(access, input.stickerId));
}

/**
 * GET /stickers/{sticker.id}: a guild sticker, to members of its guild (no packs are stored, so
 * no standard stickers); 10060 to anyone else, as for a sticker that does not exist.
 */
export async function getSticker(ctx: ServiceContext, input: { stickerId: string }): Promise<StickerObject> {
  const row = await ctx.db.sticker.findUnique({ where: { id: input.stickerId }, select: { guildId: true } });
  const state = row && (await loadGuildState(ctx.db, row.guildId, ctx.actor.userId));
  if (!state || !(await state.member(ctx.actor.userId))) throw new ApiError("UNKNOWN_STICKER");
  const access = await accessIn(state, ctx.actor);
  return withUploader(ctx, access, findSticker(access, input.stickerId));
}

async function emitStickersUpdate(change: Change, guildId: string): Promise<void> {
  const rows = await change.tx.sticker.findMany({ where: { guildId }, orderBy: { id: "asc" } });
  await change.emit(GatewayDispatchEvents.GuildStickersUpdate, { guild_id: guildId, stickers: rows.map((row) => toStickerObject(row)) });
}

function lottieAllowed(access: GuildAccess): boolean {
  const features = parseFeatures(access.guild.features);
  return features.includes(GuildFeature.Verified) || features.includes(GuildFeature.Partnered);
}

/**
 * POST /guilds/{guild.id}/stickers: needs CREATE_GUILD_EXPRESSIONS; a PNG, APNG, GIF or (in
 * verified and partnered guilds) Lottie file of at most 512 KiB; the guild's tier's slots (30039).
 */
export async function createGuildSticker(ctx: ServiceContext, input: { guildId: string; body: TStickerCreateBody }): Promise<StickerObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(createExpressionDenial(access));
  const file = readStickerFile(input.body.file, lottieAllowed(access));
  const guildId = access.guild.id;
  const row = await runChange(ctx, async (change) => {
    // Counted inside the change: two uploads at once cannot both take the last slot.
    enforce(stickerSlotDenial(access.guild.premiumTier, await change.tx.sticker.count({ where: { guildId } })));
    const id = newId();
    const path = stickerFilePath(id);
    await storeFileAt(change.tx, path, file);
    const created = await change.tx.sticker.create({
      data: {
        id,
        guildId,
        name: input.body.name,
        description: input.body.description || null,
        tags: input.body.tags,
        formatType: file.formatType,
        userId: ctx.actor.userId,
        file: path,
      },
    });
    const changes = diffChanges({}, toStickerObject(created), STICKER_AUDIT_KEYS);
    await change.audit({ guildId, actionType: AuditLogEvent.StickerCreate, targetId: id, changes });
    await emitStickersUpdate(change, guildId);
    return created;
  });
  return withUploader(ctx, access, row);
}

/** PATCH /guilds/{guild.id}/stickers/{sticker.id}: name, description, tags; MANAGE_GUILD_EXPRESSIONS, or CREATE_GUILD_EXPRESSIONS for one's own. */
export async function modifyGuildSticker(ctx: ServiceContext, input: { guildId: string; stickerId: string; body: TStickerModifyBody }): Promise<StickerObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const current = findSticker(access, input.stickerId);
  enforce(manageExpressionDenial(access, current.userId));
  const { name, description, tags } = input.body;
  const row = await runChange(ctx, async (change) => {
    const data = { name, tags, ...(description !== undefined && { description: description || null }) };
    const [updated] = await change.tx.sticker.updateManyAndReturn({ where: { id: current.id, guildId: access.guild.id }, data });
    // Deleted since the guild's state was read.
    if (!updated) throw new ApiError("UNKNOWN_STICKER");
    const changes = diffChanges(toStickerObject(current), toStickerObject(updated), STICKER_AUDIT_KEYS);
    if (changes.length > 0) await change.audit({ guildId: access.guild.id, actionType: AuditLogEvent.StickerUpdate, targetId: current.id, changes });
    await emitStickersUpdate(change, access.guild.id);
    return updated;
  });
  return withUploader(ctx, access, row);
}

/** DELETE /guilds/{guild.id}/stickers/{sticker.id}: as modifying; its file goes with it. */
export async function deleteGuildSticker(ctx: ServiceContext, input: { guildId: string; stickerId: string }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const current = findSticker(access, input.stickerId);
  enforce(manageExpressionDenial(access, current.userId));
  await runChange(ctx, async (change) => {
    const { count } = await change.tx.sticker.deleteMany({ where: { id: current.id, guildId: access.guild.id } });
    if (count === 0) throw new ApiError("UNKNOWN_STICKER");
    await removeStoredFiles(change, [current.file]);
    const changes = diffChanges(toStickerObject(current), {}, STICKER_AUDIT_KEYS);
    await change.audit({ guildId: access.guild.id, actionType: AuditLogEvent.StickerDelete, targetId: current.id, changes });
    await emitStickersUpdate(change, access.guild.id);
  });
}
