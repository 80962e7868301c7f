import { updateGuildRow } from "./guild-queries.ts";
import { AuditLogEvent, ChannelType, GatewayDispatchEvents, GuildFeature } from "discord-api-types/v10";
import type { Guild } from "~/generated/prisma/client.ts";
import type { Tx } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import { CHANNEL_INCLUDE, sortChannels, toChannelObject } from "~/server/channels/channel.dto.ts";
import type { ServiceContext } from "~/server/context.ts";
import { runChange } from "~/server/events/change.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { decodeImageField, imageHash } from "~/server/images/image-data.ts";
import { imageFolder, replaceImage, storeImage, type ImageKind } from "~/server/images/image.service.ts";
import { MEMBER_INCLUDE, toMemberObject } from "~/server/members/member.dto.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadGuildAccess, loadGuildState, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { DEFAULT_EVERYONE_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { countOnlineMembers } from "~/server/presences/presence.service.ts";
import { guildFilePaths } from "./guild-files.ts";
import { featureDenial, guildImageDenial, manageGuildDenial, ownerDenial, type GuildImageField, type MutableFeature } from "./guild-section-rules.ts";
import { checkNewOwner } from "./guild-ownership.service.ts";
import {
  GUILD_OBJECT_INCLUDE,
  parseFeatures,
  toGuildCreateObject,
  toGuildObject,
  toGuildPreview,
  type GuildCounts,
  type GuildCreateObject,
  type GuildObject,
} from "./guild.dto.ts";
import { MUTABLE_FEATURES, type TGuildCreateBody, type TGuildModifyBody } from "./guild.schema.ts";

/** A bot may create guilds only while it is in fewer than this many (platform rule). */
const BOT_MAX_GUILDS_FOR_CREATE = 10;
export const USER_MAX_GUILDS = 100;

async function countGuildMembers(db: Tx, guildId: string): Promise<GuildCounts> {
  const members = await db.member.count({ where: { guildId } });
  return { approximate_member_count: members, approximate_presence_count: (await countOnlineMembers(db, [guildId])).get(guildId) ?? 0 };
}

/** POST /guilds: the creator owns it; @everyone shares the guild id; default channels. */
export async function createGuild(ctx: ServiceContext, input: TGuildCreateBody): Promise<GuildObject> {
  const { actor } = ctx;
  const owned = await ctx.db.member.count({ where: { userId: actor.userId } });
  if (actor.kind === "bot" && owned >= BOT_MAX_GUILDS_FOR_CREATE)
    throw new ApiError("MAX_GUILDS", { message: `Maximum number of guilds reached (${BOT_MAX_GUILDS_FOR_CREATE})` });
  if (owned >= USER_MAX_GUILDS) throw new ApiError("MAX_GUILDS");
  const icon = input.icon ? decodeImageField("icon", input.icon) : null;

  return runChange(ctx, async ({ tx, emit }) => {
    const guildId = newId();
    const textCategory = newId();
    const voiceCategory = newId();
    const general = newId();
    await tx.guild.create({
      data: {
        id: guildId,
        name: input.name,
        ownerId: actor.userId,
        applicationId: actor.kind === "bot" ? actor.applicationId : null,
        region: input.region ?? null,
        verificationLevel: input.verification_level ?? 0,
        defaultMessageNotifications: input.default_message_notifications ?? 0,
        explicitContentFilter: input.explicit_content_filter ?? 0,
        afkTimeout: input.afk_timeout ?? 300,
        systemChannelFlags: input.system_channel_flags ?? 0,
        systemChannelId: general,
        roles: { create: { id: guildId, name: "@everyone", permissions: DEFAULT_EVERYONE_PERMISSIONS, position: 0 } },
        channels: {
          create: [
            { id: textCategory, type: ChannelType.GuildCategory, name: "Text Channels", position: 0 },
            { id: voiceCategory, type: ChannelType.GuildCategory, name: "Voice Channels", position: 1 },
            { id: general, type: ChannelType.GuildText, name: "general", position: 0, parentId: textCategory, rateLimitPerUser: 0 },
            {
              id: newId(),
              type: ChannelType.GuildVoice,
              name: "General",
              position: 0,
              parentId: voiceCategory,
              bitrate: 64000,
              userLimit: 0,
              rateLimitPerUser: 0,
            },
          ],
        },
        members: { create: { userId: actor.userId } },
      },
    });
    if (icon) await tx.guild.update({ where: { id: guildId }, data: { icon: await storeImage(tx, "icons", guildId, icon) } });
    const guild = await loadGuildWithRoles(tx, guildId);
    await emit(GatewayDispatchEvents.GuildCreate, await newGuildCreateData(tx, guild, actor.userId));
    return guild;
  });
}

/** GUILD_CREATE as its creator receives it: the new guild holds its channels and its owner alone. */
async function newGuildCreateData(tx: Tx, guild: GuildObject, ownerId: string): Promise<GuildCreateObject> {
  // One after the other: a transaction is one connection, which runs one query at a time.
  const channels = await tx.channel.findMany({ where: { guildId: guild.id }, include: CHANNEL_INCLUDE });
  const owner = await tx.member.findUniqueOrThrow({ where: { guildId_userId: { guildId: guild.id, userId: ownerId } }, include: MEMBER_INCLUDE });
  const member = toMemberObject(owner);
  return toGuildCreateObject(guild, {
    joined_at: member.joined_at,
    large: false,
    member_count: 1,
    members: [member],
    channels: sortChannels(channels).map(toChannelObject),
    threads: [],
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  });
}

async function loadGuildWithRoles(db: Tx, guildId: string): Promise<GuildObject> {
  const guild = await db.guild.findUnique({ where: { id: guildId }, include: GUILD_OBJECT_INCLUDE });
  if (!guild) throw new ApiError("UNKNOWN_GUILD");
  return toGuildObject(guild, guild.roles, guild);
}

/** GET /guilds/{guild.id}: members only; with_counts adds both approximate counts. */
export async function getGuild(ctx: ServiceContext, input: { guildId: string; withCounts?: boolean }): Promise<GuildObject> {
  const { state } = await loadGuildAccess(ctx, input.guildId);
  if (!input.withCounts) return state.guildObject;
  return { ...state.guildObject, ...(await countGuildMembers(ctx.db, input.guildId)) };
}

/** GET /guilds/{guild.id}/preview: members, or anyone when the guild is DISCOVERABLE. */
export async function getGuildPreview(ctx: ServiceContext, input: { guildId: string }) {
  const state = await loadGuildState(ctx.db, input.guildId);
  const { guild } = state;
  if (!state.guildObject.features.includes(GuildFeature.Discoverable) && !(await state.member(ctx.actor.userId))) throw new ApiError("UNKNOWN_GUILD");
  return toGuildPreview({ ...guild, ...state.expressions, roles: state.roles }, await countGuildMembers(ctx.db, guild.id));
}

const GUILD_AUDIT_KEYS = [
  "name",
  "owner_id",
  "region",
  "verification_level",
  "default_message_notifications",
  "explicit_content_filter",
  "afk_channel_id",
  "afk_timeout",
  "icon",
  "splash",
  "discovery_splash",
  "banner",
  "system_channel_id",
  "system_channel_flags",
  "rules_channel_id",
  "public_updates_channel_id",
  "preferred_locale",
  "features",
  "description",
  "premium_progress_bar_enabled",
  "safety_alerts_channel_id",
] as const;

/** PATCH /guilds/{guild.id} (spec 4.2, 4.3): needs MANAGE_GUILD; fires Guild Update. */
export async function modifyGuild(ctx: ServiceContext, input: { guildId: string; body: TGuildModifyBody }): Promise<GuildObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  const { guild } = access;
  const body = input.body;
  const features = parseFeatures(guild.features);

  const data: Partial<Omit<Guild, "id">> = {};
  if (body.name !== undefined) data.name = body.name;
  if (body.region !== undefined) data.region = body.region;
  if (body.verification_level !== undefined) data.verificationLevel = body.verification_level ?? 0;
  if (body.default_message_notifications !== undefined) data.defaultMessageNotifications = body.default_message_notifications ?? 0;
  if (body.explicit_content_filter !== undefined) data.explicitContentFilter = body.explicit_content_filter ?? 0;
  if (body.afk_timeout !== undefined) data.afkTimeout = body.afk_timeout;
  if (body.system_channel_flags !== undefined) data.systemChannelFlags = body.system_channel_flags;
  if (body.preferred_locale !== undefined) data.preferredLocale = body.preferred_locale ?? "en-US";
  if (body.description !== undefined) data.description = body.description;
  if (body.premium_progress_bar_enabled !== undefined) data.premiumProgressBarEnabled = body.premium_progress_bar_enabled;
  if (body.owner_id !== undefined) data.ownerId = await checkNewOwner(ctx.db, access, body.owner_id);

  await checkGuildChannels(ctx.db, guild.id, body);
  Object.assign(data, {
    ...(body.afk_channel_id !== undefined && { afkChannelId: body.afk_channel_id }),
    ...(body.system_channel_id !== undefined && { systemChannelId: body.system_channel_id }),
    ...(body.rules_channel_id !== undefined && { rulesChannelId: body.rules_channel_id }),
    ...(body.public_updates_channel_id !== undefined && { publicUpdatesChannelId: body.public_updates_channel_id }),
    ...(body.safety_alerts_channel_id !== undefined && { safetyAlertsChannelId: body.safety_alerts_channel_id }),
  });

  const nextFeatures = body.features === undefined ? features : resolveFeatures(access, features, body.features);
  if (body.features !== undefined) {
    checkFeatureRequirements(nextFeatures, { ...guild, ...pickDefined(data) });
    data.features = JSON.stringify(nextFeatures);
  }
  const images = checkImages(body, nextFeatures);

  for (const image of images) data[image.column] = image.value && imageHash(image.value);
  return runChange(ctx, async (change) => {
    const { sql, emit, audit } = change;
    const before = access.state.guildObject;
    const updated = await updateGuildRow(sql, guild.id, data);
    if (!updated) throw new ApiError("UNKNOWN_GUILD");
    for (const image of images) await replaceImage(change, imageFolder(image.kind, guild.id), guild[image.column], image.value);
    const after = toGuildObject(updated, access.roles, access.state.expressions);
    const changes = diffChanges(before, after, GUILD_AUDIT_KEYS);
    if (changes.length) await audit({ guildId: guild.id, actionType: AuditLogEvent.GuildUpdate, targetId: guild.id, changes });
    await emit(GatewayDispatchEvents.GuildUpdate, after);
    return after;
  });
}

function pickDefined(data: Partial<Guild>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
}

const VOICE_TYPES: readonly number[] = [ChannelType.GuildVoice];
const TEXT_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement];

/** Channel-id fields must name a channel of this guild of the right type. */
async function checkGuildChannels(db: Tx, guildId: string, body: TGuildModifyBody): Promise<void> {
  const fields = [
    ["afk_channel_id", body.afk_channel_id, VOICE_TYPES],
    ["system_channel_id", body.system_channel_id, TEXT_TYPES],
    ["rules_channel_id", body.rules_channel_id, TEXT_TYPES],
    ["public_updates_channel_id", body.public_updates_channel_id, TEXT_TYPES],
    ["safety_alerts_channel_id", body.safety_alerts_channel_id, TEXT_TYPES],
  ] as const;
  const ids = fields.flatMap(([, id]) => (id ? [id] : []));
  if (ids.length === 0) return;
  const channels = await db.channel.findMany({ where: { id: { in: ids }, guildId }, select: { id: true, type: true } });
  const byId = new Map(channels.map((c) => [c.id, c.type]));
  for (const [field, id, types] of fields) {
    if (!id) continue;
    const type = byId.get(id);
    if (type === undefined) throw invalidField([field], "CHANNEL_INVALID", "Unknown channel in this guild.");
    if (!types.includes(type)) throw invalidField([field], "CHANNEL_TYPE_INVALID", `Channel must be ${types === VOICE_TYPES ? "a voice" : "a text"} channel.`);
  }
}

/**
 * The guild's next feature list: immutable features stay as they are; each mutable one
 * that changes needs the permission the spec names for it.
 */
function resolveFeatures(access: GuildAccess, current: readonly string[], requested: readonly string[]): string[] {
  const next = current.filter((f) => !(f in MUTABLE_FEATURES));
  for (const feature of Object.keys(MUTABLE_FEATURES) as MutableFeature[]) {
    const wanted = requested.includes(feature);
    if (wanted !== current.includes(feature)) enforce(featureDenial(access, feature));
    if (wanted) next.push(feature);
  }
  return next;
}

/** COMMUNITY needs rules and updates channels and stricter moderation; DISCOVERABLE needs COMMUNITY and a description. */
function checkFeatureRequirements(features: readonly string[], guild: Guild): void {
  if (features.includes(GuildFeature.Community)) {
    if (!guild.rulesChannelId || !guild.publicUpdatesChannelId)
      throw invalidField(["features"], "GUILD_COMMUNITY_REQUIREMENTS", "Community guilds need a rules channel and a public updates channel.");
    if (guild.verificationLevel < 1 || guild.explicitContentFilter !== 2)
      throw invalidField(
        ["features"],
        "GUILD_COMMUNITY_REQUIREMENTS",
        "Community guilds need verification level LOW or higher and the explicit content filter on for all members.",
      );
  }
  if (features.includes(GuildFeature.Discoverable)) {
    if (!features.includes(GuildFeature.Community))
      throw invalidField(["features"], "GUILD_DISCOVERY_REQUIREMENTS", "Discoverable guilds must be Community guilds.");
    if (!guild.description) throw invalidField(["features"], "GUILD_DISCOVERY_REQUIREMENTS", "Discoverable guilds need a description.");
  }
}

type ImageChange = { column: "icon" | "splash" | "discoverySplash" | "banner"; kind: ImageKind; value: ReturnType<typeof decodeImageField> | null };

/** Decodes image fields and applies the feature each needs (spec 4.3). */
function checkImages(body: TGuildModifyBody, features: readonly string[]): ImageChange[] {
  const changes: ImageChange[] = [];
  const add = (field: GuildImageField, column: ImageChange["column"], kind: ImageKind) => {
    const raw = body[field];
    if (raw === undefined) return;
    if (raw === null) return void changes.push({ column, kind, value: null });
    const image = decodeImageField(field, raw);
    const denial = guildImageDenial(features, field, image.animated);
    if (denial) throw invalidField([field], "GUILD_FEATURE_REQUIRED", denial.reason);
    changes.push({ column, kind, value: image });
  };
  add("icon", "icon", "icons");
  add("splash", "splash", "splashes");
  add("discovery_splash", "discoverySplash", "discovery-splashes");
  add("banner", "banner", "banners");
  return changes;
}

/** DELETE /guilds/{guild.id}: the owner only. */
export async function deleteGuild(ctx: ServiceContext, input: { guildId: string }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(ownerDenial(access));
  await runChange(ctx, async (change) => {
    const { tx, emit } = change;
    await removeStoredFiles(change, await guildFilePaths(tx, input.guildId));
    await tx.guild.delete({ where: { id: input.guildId } });
    await emit(GatewayDispatchEvents.GuildDelete, { id: input.guildId });
  });
}
