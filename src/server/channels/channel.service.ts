import { AuditLogEvent, ChannelType, GatewayDispatchEvents, GuildFeature, PermissionFlagsBits } from "discord-api-types/v10";
import type { Channel, Guild, Prisma } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import { disconnectVoiceStates } from "~/server/members/voice.service.ts";
import type { Tx } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import type { ServiceContext } from "~/server/context.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { parseFeatures, toGuildObject } from "~/server/guilds/guild.dto.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { attachmentPathsOf } from "~/server/messages/attachments.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { accessIn, channelPermissions, loadGuildAccess, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { hasPermission, type PermissionOverwriteInput } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { dropChannelWebhooks } from "~/server/webhooks/webhook-removal.ts";
import { savedChannelName } from "./channel-name.ts";
import {
  createChannelDenial,
  deleteChannelDenial,
  editChannelDenial,
  newChannelOverwriteLimits,
  overwriteChangeDenial,
  overwriteEditDenial,
  overwriteLimits,
  reorderChannelsDenial,
} from "./channel-rules.ts";
import { changedOverwriteBits, sameOverwrites } from "./channel-overwrites.ts";
import {
  CHANNEL_INCLUDE,
  NOT_A_THREAD,
  parseTags,
  THREAD_TYPES,
  toChannelObject,
  type ChannelObject,
  type ChannelRow,
  type ForumTagObject,
  type OverwriteObject,
} from "./channel.dto.ts";
import {
  DEFAULT_BITRATE,
  EDITABLE_CHANNEL_FLAGS,
  fieldAppliesTo,
  GUILD_CHANNEL_TYPES,
  MAX_CATEGORY_CHANNELS,
  MAX_GUILD_CHANNELS,
  STAGE_BITRATE_MAX,
  STAGE_USER_LIMIT_MAX,
  VIP_BITRATE_MAX,
  VOICE_BITRATE_MAX_BY_TIER,
  VOICE_USER_LIMIT_MAX,
  type ChannelTypedField,
  type TChannelCreateBody,
  type TChannelModifyBody,
  type TChannelPosition,
  type TForumTagInput,
  type TOverwriteInput,
} from "./channel.schema.ts";

const P = PermissionFlagsBits;

/** Keys of the channel object recorded in audit entries; overwrites get entries of their own on update. */
const CHANNEL_AUDIT_KEYS = [
  "name",
  "type",
  "position",
  "topic",
  "bitrate",
  "user_limit",
  "rate_limit_per_user",
  "nsfw",
  "parent_id",
  "rtc_region",
  "video_quality_mode",
  "default_auto_archive_duration",
  "default_thread_rate_limit_per_user",
  "available_tags",
  "default_reaction_emoji",
  "default_sort_order",
  "default_forum_layout",
  "flags",
] as const;
const CHANNEL_RECORD_KEYS = [...CHANNEL_AUDIT_KEYS, "permission_overwrites"] as const;
const OVERWRITE_AUDIT_KEYS = ["id", "type", "allow", "deny"] as const;

/** Guild columns that name a channel; deleting the channel clears them. */
const GUILD_CHANNEL_COLUMNS = [
  "afkChannelId",
  "systemChannelId",
  "rulesChannelId",
  "publicUpdatesChannelId",
  "safetyAlertsChannelId",
  "widgetChannelId",
] as const;

export type ChannelAccess = { access: GuildAccess; channel: ChannelRow; permissions: bigint };

function permissionsIn(access: GuildAccess, channel: ChannelRow): bigint {
  return channelPermissions(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) });
}

/** A guild channel the caller can see. Unknown → 10003; not a member, or hidden → 50001. */
export async function loadChannelAccess(ctx: ServiceContext, channelId: string): Promise<ChannelAccess> {
  const cache = stateCache(ctx.db);
  const guildId = await cache.guildIdOfChannel(channelId);
  const state = guildId ? await cache.guild(guildId, ctx.actor.userId) : null;
  const channel = (await state?.channels())?.byId.get(channelId);
  if (!state || !channel) throw new ApiError("UNKNOWN_CHANNEL");
  const access = await accessIn(state, ctx.actor);
  const permissions = permissionsIn(access, channel);
  if (!hasPermission(permissions, P.ViewChannel)) throw new ApiError("MISSING_ACCESS");
  return { access, channel, permissions };
}

/** GET /guilds/{guild.id}/channels (spec 4.2, 9): no threads, and only channels the caller can view. */
export async function listGuildChannels(ctx: ServiceContext, input: { guildId: string }): Promise<ChannelObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const channels = await access.state.channels();
  // Since 16 November 2026 the list omits channels without VIEW_CHANNEL (spec 9).
  return channels.rows.filter((row) => hasPermission(permissionsIn(access, row), P.ViewChannel)).map((row) => channels.objects.get(row.id)!);
}

/** GET /channels/{channel.id}: members who can view the channel. */
export async function getChannel(ctx: ServiceContext, input: { channelId: string }): Promise<ChannelObject> {
  const { access, channel } = await loadChannelAccess(ctx, input.channelId);
  return (await access.state.channels()).objects.get(channel.id)!;
}

/** POST /guilds/{guild.id}/channels (spec 4.2, 4.4): needs MANAGE_CHANNELS; fires Channel Create. */
export async function createGuildChannel(ctx: ServiceContext, input: { guildId: string; body: TChannelCreateBody }): Promise<ChannelObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { guild } = access;
  const { body } = input;
  const type = body.type ?? ChannelType.GuildText;
  const name = savedChannelName(type, body.name);
  const parentId = fieldAppliesTo("parent_id", type) ? (body.parent_id ?? null) : null;
  const parent = parentId ? await loadParentCategory(ctx.db, guild.id, parentId, null) : null;
  // Inside a category the caller's permissions there decide, overwrites included.
  const parentPermissions = parent ? permissionsIn(access, parent) : null;
  enforce(createChannelDenial(access, parentPermissions));
  if (type === ChannelType.GuildAnnouncement && !hasAnnouncements(guild)) {
    throw typeChoicesError(GUILD_CHANNEL_TYPES.filter((t) => t !== ChannelType.GuildAnnouncement));
  }
  const count = await ctx.db.channel.count({ where: { guildId: guild.id, type: NOT_A_THREAD } });
  if (count >= MAX_GUILD_CHANNELS) throw new ApiError("MAX_CHANNELS");

  const columns = typedColumns({ type, body, guild, current: null });
  let overwrites: PermissionOverwriteInput[];
  if (body.permission_overwrites) {
    overwrites = await resolveOverwrites(ctx.db, access, body.permission_overwrites);
    // The platform checks new overwrites against the caller's guild permissions (and the category's).
    enforce(overwriteChangeDenial(access, changedOverwriteBits([], overwrites), newChannelOverwriteLimits(access, parentPermissions)));
  } else {
    // Without overwrites of its own a new channel starts synced with its category.
    overwrites = parent ? toOverwriteInputs(parent.overwrites) : [];
  }
  const position = body.position ?? (await nextPosition(ctx.db, guild.id, parentId, type === ChannelType.GuildCategory));

  return runChange(ctx, async ({ tx, emit, audit }) => {
    const row = await tx.channel.create({
      data: {
        id: newId(),
        guildId: guild.id,
        type,
        name,
        position,
        parentId,
        ...columns,
        overwrites: { create: overwrites.map((o) => ({ targetId: o.id, type: o.type, allow: o.allow, deny: o.deny })) },
      },
      include: CHANNEL_INCLUDE,
    });
    const channel = toChannelObject(row);
    await audit({ guildId: guild.id, actionType: AuditLogEvent.ChannelCreate, targetId: channel.id, changes: diffChanges({}, channel, CHANNEL_RECORD_KEYS) });
    await emit(GatewayDispatchEvents.ChannelCreate, channel);
    return channel;
  });
}

/**
 * PATCH /channels/{channel.id}: needs MANAGE_CHANNELS in the channel, and MANAGE_ROLES to
 * change overwrites; type changes only between text and announcement. Fires Channel Update.
 */
export async function modifyChannel(ctx: ServiceContext, input: { channelId: string; body: TChannelModifyBody }): Promise<ChannelObject> {
  const { access, channel, permissions } = await loadChannelAccess(ctx, input.channelId);
  const { guild } = access;
  const { body } = input;
  enforce(editChannelDenial(access, permissions));

  const type = resolveTypeChange(guild, channel.type, body.type);
  const data: Prisma.ChannelUncheckedUpdateInput = typedColumns({ type, body, guild, current: channel });
  if (type !== channel.type) data.type = type;
  if (body.name !== undefined) data.name = savedChannelName(type, body.name);
  if (body.position !== undefined && body.position !== null) data.position = body.position;

  const isMoving = body.parent_id !== undefined && fieldAppliesTo("parent_id", type) && body.parent_id !== channel.parentId;
  const newParent = isMoving && body.parent_id ? await loadParentCategory(ctx.db, guild.id, body.parent_id, channel.id) : null;
  if (isMoving) data.parentId = body.parent_id ?? null;

  let overwrites: PermissionOverwriteInput[] | null = null;
  if (body.permission_overwrites !== undefined) {
    overwrites = await resolveOverwrites(ctx.db, access, body.permission_overwrites ?? []);
    const parentId = isMoving ? (body.parent_id ?? null) : channel.parentId;
    const parent = newParent ?? (parentId ? await ctx.db.channel.findUnique({ where: { id: parentId }, include: CHANNEL_INCLUDE }) : null);
    checkOverwriteEdit(access, channel, parent, overwrites);
  }

  return runChange(ctx, async (change) => {
    const { tx, emit } = change;
    await tx.channel.update({ where: { id: channel.id }, data });
    if (overwrites) await replaceOverwrites(tx, channel.id, overwrites);
    const after = toChannelObject(await tx.channel.findUniqueOrThrow({ where: { id: channel.id }, include: CHANNEL_INCLUDE }));
    await auditChannelUpdate(change, access, toChannelObject(channel), after);
    await emit(GatewayDispatchEvents.ChannelUpdate, after);
    if (overwrites && channel.type === ChannelType.GuildCategory) await syncCategoryChildren(change, channel, overwrites);
    return after;
  });
}

/**
 * DELETE /channels/{channel.id}: needs MANAGE_CHANNELS; returns the deleted channel. A
 * category's children stay, without a parent; guild settings naming the channel are cleared.
 */
export async function deleteChannel(ctx: ServiceContext, input: { channelId: string }): Promise<ChannelObject> {
  const { access, channel, permissions } = await loadChannelAccess(ctx, input.channelId);
  const { guild } = access;
  enforce(deleteChannelDenial(access, channel, permissions));
  const deleted = toChannelObject(channel);
  const clearedGuildColumns = Object.fromEntries(GUILD_CHANNEL_COLUMNS.filter((column) => guild[column] === channel.id).map((column) => [column, null]));

  return runChange(ctx, async (change) => {
    const { tx, emit, audit } = change;
    const children = channel.type === ChannelType.GuildCategory ? await tx.channel.findMany({ where: { parentId: channel.id }, include: CHANNEL_INCLUDE }) : [];
    if (children.length) await tx.channel.updateMany({ where: { parentId: channel.id }, data: { parentId: null } });
    // Threads go with their channel, as on the platform, and the files of every message in them.
    const threads = await tx.channel.findMany({ where: { parentId: channel.id, type: { in: THREAD_TYPES } }, select: { id: true } });
    await removeStoredFiles(change, await attachmentPathsOf(tx, { channelId: { in: [channel.id, ...threads.map((thread) => thread.id)] } }));
    await tx.channel.deleteMany({ where: { parentId: channel.id, type: { in: THREAD_TYPES } } });
    await dropChannelWebhooks(change, guild.id, channel.id);
    await tx.channel.delete({ where: { id: channel.id } });
    // Whoever was connected to a deleted voice channel is disconnected.
    await disconnectVoiceStates(change, await tx.voiceState.findMany({ where: { guildId: guild.id, channelId: channel.id } }));
    if (Object.keys(clearedGuildColumns).length) {
      const updated = await tx.guild.update({ where: { id: guild.id }, data: clearedGuildColumns });
      await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, access.roles));
    }
    for (const child of children) await emit(GatewayDispatchEvents.ChannelUpdate, toChannelObject({ ...child, parentId: null }));
    await audit({ guildId: guild.id, actionType: AuditLogEvent.ChannelDelete, targetId: channel.id, changes: diffChanges(deleted, {}, CHANNEL_RECORD_KEYS) });
    await emit(GatewayDispatchEvents.ChannelDelete, deleted);
    return deleted;
  });
}

/**
 * PATCH /guilds/{guild.id}/channels (spec 4.2): needs MANAGE_CHANNELS; moves and reorders the
 * listed channels; lock_permissions copies the new category's overwrites, which is an
 * overwrite change and needs what PATCH /channels/{channel.id} needs for it. One Channel
 * Update per channel that changed.
 */
export async function modifyGuildChannelPositions(ctx: ServiceContext, input: { guildId: string; positions: readonly TChannelPosition[] }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(reorderChannelsDenial(access));
  const { rows, byId } = await access.state.channels();
  type Placement = { row: ChannelRow; position: number; parentId: string | null; overwrites: PermissionOverwriteInput[] };
  const placements = new Map<string, Placement>();
  const placementOf = (row: ChannelRow): Placement =>
    placements.get(row.id) ?? { row, position: row.position, parentId: row.parentId, overwrites: toOverwriteInputs(row.overwrites) };
  // Children per category as placed so far, so each entry costs the same however many channels there are.
  const childCount = new Map<string, number>();
  for (const row of rows) if (row.parentId) childCount.set(row.parentId, (childCount.get(row.parentId) ?? 0) + 1);

  input.positions.forEach((entry, index) => {
    const row = byId.get(entry.id);
    if (!row) throw invalidField([index, "id"], "CHANNEL_INVALID", "Unknown channel in this guild.");
    const current = placementOf(row);
    const next = { ...current };
    if (entry.position !== undefined && entry.position !== null) next.position = entry.position;
    if (entry.parent_id !== undefined && row.type !== ChannelType.GuildCategory) {
      if (entry.parent_id !== null) {
        const parent = byId.get(entry.parent_id);
        if (parent?.type !== ChannelType.GuildCategory)
          throw invalidField([index, "parent_id"], "CHANNEL_PARENT_INVALID", "Parent must be a category of this guild.");
        const siblings = (childCount.get(parent.id) ?? 0) - (current.parentId === parent.id ? 1 : 0);
        if (siblings >= MAX_CATEGORY_CHANNELS) throw categoryFullError([index, "parent_id"]);
        const synced = toOverwriteInputs(parent.overwrites);
        if (entry.lock_permissions && !sameOverwrites(current.overwrites, synced)) {
          checkOverwriteEdit(access, row, parent, synced);
          next.overwrites = synced;
        }
      }
      if (current.parentId) childCount.set(current.parentId, (childCount.get(current.parentId) ?? 1) - 1);
      if (entry.parent_id) childCount.set(entry.parent_id, (childCount.get(entry.parent_id) ?? 0) + 1);
      next.parentId = entry.parent_id;
    }
    placements.set(row.id, next);
  });

  const changed = [...placements.values()].filter(
    (p) => p.position !== p.row.position || p.parentId !== p.row.parentId || !sameOverwrites(toOverwriteInputs(p.row.overwrites), p.overwrites),
  );
  if (changed.length === 0) return;

  await runChange(ctx, async (change) => {
    for (const placement of changed) {
      const { row } = placement;
      await change.tx.channel.update({ where: { id: row.id }, data: { position: placement.position, parentId: placement.parentId } });
      if (!sameOverwrites(toOverwriteInputs(row.overwrites), placement.overwrites)) await replaceOverwrites(change.tx, row.id, placement.overwrites);
      const after = toChannelObject(await change.tx.channel.findUniqueOrThrow({ where: { id: row.id }, include: CHANNEL_INCLUDE }));
      await auditChannelUpdate(change, access, toChannelObject(row), after);
      await change.emit(GatewayDispatchEvents.ChannelUpdate, after);
    }
  });
}

type TypedField = Exclude<ChannelTypedField, "parent_id">;
type TypedColumns = Partial<
  Pick<
    Channel,
    | "topic"
    | "bitrate"
    | "userLimit"
    | "rateLimitPerUser"
    | "nsfw"
    | "rtcRegion"
    | "videoQualityMode"
    | "defaultAutoArchiveDuration"
    | "defaultReactionEmoji"
    | "availableTags"
    | "defaultSortOrder"
    | "defaultForumLayout"
    | "defaultThreadRateLimitPerUser"
    | "flags"
  >
>;

/**
 * The type-specific columns of a create (`current` null: every field the type uses, with
 * defaults) or a modify (only the fields sent; null resets to the default). Fields that
 * another channel type uses are ignored, as the platform ignores them.
 */
function typedColumns(input: { type: number; body: TChannelModifyBody; guild: Guild; current: ChannelRow | null }): TypedColumns {
  const { type, body, guild, current } = input;
  function value<K extends TypedField, F>(field: K, fallback: F): NonNullable<TChannelModifyBody[K]> | F | undefined {
    if (!fieldAppliesTo(field, type) || (current && body[field] === undefined)) return undefined;
    return body[field] ?? fallback;
  }
  const columns: TypedColumns = {};

  const topic = value("topic", null);
  if (topic !== undefined) columns.topic = topic;
  const bitrate = value("bitrate", DEFAULT_BITRATE);
  if (bitrate !== undefined) {
    const max = maxBitrate(guild, type);
    if (bitrate > max) throw tooLarge("bitrate", max);
    columns.bitrate = bitrate;
  }
  const userLimit = value("user_limit", 0);
  if (userLimit !== undefined) {
    const max = type === ChannelType.GuildStageVoice ? STAGE_USER_LIMIT_MAX : VOICE_USER_LIMIT_MAX;
    if (userLimit > max) throw tooLarge("user_limit", max);
    columns.userLimit = userLimit;
  }
  const tags = value("available_tags", null);
  if (tags !== undefined) columns.availableTags = tags === null ? null : JSON.stringify(toTags(tags, parseTags(current?.availableTags ?? null)));
  const reaction = value("default_reaction_emoji", null);
  if (reaction !== undefined)
    columns.defaultReactionEmoji = reaction === null ? null : JSON.stringify({ emoji_id: reaction.emoji_id ?? null, emoji_name: reaction.emoji_name ?? null });
  const flags = value("flags", 0);
  if (flags !== undefined) {
    // Only some flags are the caller's to set; the rest keep what the platform put there.
    const editable = EDITABLE_CHANNEL_FLAGS[type] ?? 0;
    columns.flags = ((current?.flags ?? 0) & ~editable) | (flags & editable);
  }

  const set = <C extends keyof TypedColumns>(column: C, v: TypedColumns[C] | undefined) => {
    if (v !== undefined) columns[column] = v;
  };
  set("rateLimitPerUser", value("rate_limit_per_user", 0));
  set("nsfw", value("nsfw", false));
  set("rtcRegion", value("rtc_region", null));
  set("videoQualityMode", value("video_quality_mode", null));
  set("defaultAutoArchiveDuration", value("default_auto_archive_duration", null));
  set("defaultSortOrder", value("default_sort_order", null));
  set("defaultForumLayout", value("default_forum_layout", 0));
  set("defaultThreadRateLimitPerUser", value("default_thread_rate_limit_per_user", null));
  return columns;
}

function tooLarge(field: string, max: number): ApiError {
  return invalidField([field], "NUMBER_TYPE_MAX", `int value should be less than or equal to ${max}.`);
}

/** Voice bitrate ceiling by boost tier, or the VIP one; stage channels have their own. */
function maxBitrate(guild: Guild, type: number): number {
  if (type === ChannelType.GuildStageVoice) return STAGE_BITRATE_MAX;
  if (parseFeatures(guild.features).includes(GuildFeature.VIPRegions)) return VIP_BITRATE_MAX;
  return VOICE_BITRATE_MAX_BY_TIER[guild.premiumTier] ?? VIP_BITRATE_MAX;
}

/** Tags keep their id when the request names an existing one; new tags get a new id. */
function toTags(input: readonly TForumTagInput[], existing: readonly ForumTagObject[]): ForumTagObject[] {
  const known = new Set(existing.map((tag) => tag.id));
  return input.map((tag) => ({
    id: tag.id && known.has(tag.id) ? tag.id : newId(),
    name: tag.name,
    moderated: tag.moderated ?? false,
    emoji_id: tag.emoji_id ?? null,
    emoji_name: tag.emoji_name ?? null,
  }));
}

/** Announcement channels need the NEWS feature, which COMMUNITY guilds have. */
function hasAnnouncements(guild: Guild): boolean {
  const features = parseFeatures(guild.features);
  return features.includes(GuildFeature.News) || features.includes(GuildFeature.Community);
}

function typeChoicesError(choices: readonly number[]): ApiError {
  return invalidField(["type"], "BASE_TYPE_CHOICES", `Value must be one of {${choices.join(", ")}}.`);
}

/** The only type change the platform supports is text ↔ announcement, with NEWS. */
function resolveTypeChange(guild: Guild, current: number, requested: number | null | undefined): number {
  if (requested === undefined || requested === null || requested === current) return current;
  const convertible: number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement];
  if (convertible.includes(current) && convertible.includes(requested) && hasAnnouncements(guild)) return requested;
  throw typeChoicesError(convertible.includes(current) && hasAnnouncements(guild) ? convertible : [current]);
}

function categoryFullError(path: readonly PropertyKey[]): ApiError {
  return invalidField(path, "CHANNEL_PARENT_MAX_CHANNELS", `Maximum number of channels in category reached (${MAX_CATEGORY_CHANNELS})`);
}

/** The category a channel goes into: one of this guild's categories, not yet full. */
async function loadParentCategory(db: Tx, guildId: string, parentId: string, movingId: string | null): Promise<ChannelRow> {
  const parent = await db.channel.findFirst({ where: { id: parentId, guildId }, include: CHANNEL_INCLUDE });
  if (parent?.type !== ChannelType.GuildCategory) throw invalidField(["parent_id"], "CHANNEL_PARENT_INVALID", "Parent must be a category of this guild.");
  const children = await db.channel.count({ where: { parentId, ...(movingId && { id: { not: movingId } }) } });
  if (children >= MAX_CATEGORY_CHANNELS) throw categoryFullError(["parent_id"]);
  return parent;
}

/** Below its siblings: the same category (or the top level), categories among categories. */
async function nextPosition(db: Tx, guildId: string, parentId: string | null, isCategory: boolean): Promise<number> {
  const type = isCategory ? ChannelType.GuildCategory : { notIn: [ChannelType.GuildCategory, ...THREAD_TYPES] };
  const last = await db.channel.aggregate({ where: { guildId, parentId, type }, _max: { position: true } });
  return last._max.position === null ? 0 : last._max.position + 1;
}

/**
 * Request overwrites → stored form. Targets must be a role of the guild or a member; a
 * missing type is inferred from the id; a repeated target replaces the earlier entry.
 */
async function resolveOverwrites(db: Tx, access: GuildAccess, inputs: readonly TOverwriteInput[]): Promise<PermissionOverwriteInput[]> {
  const roleIds = new Set(access.roles.map((role) => role.id));
  const maybeMembers = inputs.filter((o) => o.type === 1 || (o.type == null && !roleIds.has(o.id))).map((o) => o.id);
  const members = maybeMembers.length
    ? new Set((await db.member.findMany({ where: { guildId: access.guild.id, userId: { in: maybeMembers } }, select: { userId: true } })).map((m) => m.userId))
    : new Set<string>();
  const byTarget = new Map<string, PermissionOverwriteInput>();
  inputs.forEach((o, index) => {
    const type = o.type ?? (roleIds.has(o.id) ? 0 : members.has(o.id) ? 1 : null);
    if (type === null) throw invalidField(["permission_overwrites", index, "type"], "BASE_TYPE_REQUIRED", "This field is required");
    if (type === 0 && !roleIds.has(o.id)) throw new ApiError("UNKNOWN_ROLE");
    if (type === 1 && !members.has(o.id)) throw new ApiError("UNKNOWN_MEMBER");
    byTarget.set(o.id, { id: o.id, type: type === 1 ? 1 : 0, allow: o.allow, deny: o.deny });
  });
  return [...byTarget.values()];
}

/**
 * Whether the caller may replace a channel's overwrites with `after` (PATCH /channels/{id},
 * or a sync with a category on reorder); `parent` is the category it ends up in.
 */
function checkOverwriteEdit(access: GuildAccess, channel: ChannelRow, parent: ChannelRow | null, after: readonly PermissionOverwriteInput[]): void {
  const before = toOverwriteInputs(channel.overwrites);
  enforce(overwriteEditDenial(access, permissionsIn(access, channel)));
  const limits = overwriteLimits(access, before, parent ? permissionsIn(access, parent) : null);
  enforce(overwriteChangeDenial(access, changedOverwriteBits(before, after), limits));
}

async function replaceOverwrites(tx: Tx, channelId: string, overwrites: readonly PermissionOverwriteInput[]): Promise<void> {
  await tx.permissionOverwrite.deleteMany({ where: { channelId } });
  if (overwrites.length) {
    await tx.permissionOverwrite.createMany({ data: overwrites.map((o) => ({ channelId, targetId: o.id, type: o.type, allow: o.allow, deny: o.deny })) });
  }
}

/** Children synced with a category (same overwrites) follow its new overwrites. */
async function syncCategoryChildren(change: Change, category: ChannelRow, overwrites: readonly PermissionOverwriteInput[]): Promise<void> {
  const before = toOverwriteInputs(category.overwrites);
  const children = await change.tx.channel.findMany({ where: { parentId: category.id }, include: CHANNEL_INCLUDE });
  for (const child of children) {
    if (!sameOverwrites(toOverwriteInputs(child.overwrites), before)) continue;
    await replaceOverwrites(change.tx, child.id, overwrites);
    const row = await change.tx.channel.findUniqueOrThrow({ where: { id: child.id }, include: CHANNEL_INCLUDE });
    await change.emit(GatewayDispatchEvents.ChannelUpdate, toChannelObject(row));
  }
}

/** CHANNEL_UPDATE for field changes, and one CHANNEL_OVERWRITE_* entry per overwrite changed. */
async function auditChannelUpdate(change: Change, access: GuildAccess, before: ChannelObject, after: ChannelObject): Promise<void> {
  const guildId = access.guild.id;
  const changes = diffChanges(before, after, CHANNEL_AUDIT_KEYS);
  if (changes.length) await change.audit({ guildId, actionType: AuditLogEvent.ChannelUpdate, targetId: after.id, changes });

  const old = new Map(before.permission_overwrites.map((o) => [o.id, o]));
  const kept = new Set(after.permission_overwrites.map((o) => o.id));
  const entry = (actionType: AuditLogEvent, o: OverwriteObject, from: OverwriteObject | Record<string, never>, to: OverwriteObject | Record<string, never>) =>
    change.audit({ guildId, actionType, targetId: after.id, changes: diffChanges(from, to, OVERWRITE_AUDIT_KEYS), options: overwriteOptions(access, o) });
  for (const o of after.permission_overwrites) {
    const previous = old.get(o.id);
    if (!previous) await entry(AuditLogEvent.ChannelOverwriteCreate, o, {}, o);
    else if (previous.allow !== o.allow || previous.deny !== o.deny) await entry(AuditLogEvent.ChannelOverwriteUpdate, o, previous, o);
  }
  for (const o of before.permission_overwrites) if (!kept.has(o.id)) await entry(AuditLogEvent.ChannelOverwriteDelete, o, o, {});
}

/** The audit options of an overwrite entry: its target, target type, and the role's name. */
function overwriteOptions(access: GuildAccess, o: OverwriteObject): Record<string, string> {
  const role = o.type === 0 ? access.roles.find((r) => r.id === o.id) : undefined;
  return { id: o.id, type: String(o.type), ...(role && { role_name: role.name }) };
}
