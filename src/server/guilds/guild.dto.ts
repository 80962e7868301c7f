import {
  GuildNSFWLevel,
  type APIGuild,
  type APIGuildPreview,
  type GatewayGuildCreateDispatchData,
  type GuildFeature,
  type Locale,
} from "discord-api-types/v10";
import type { Emoji, Guild, Role, Sticker } from "~/generated/prisma/client.ts";
import { toEmojiObject } from "~/server/emojis/emoji.dto.ts";
import { toRoleObject, sortRoles, type RoleObject } from "~/server/roles/role.dto.ts";
import { toStickerObject } from "~/server/stickers/sticker.dto.ts";

/** A guild feature name: discord-api-types' list and PRUNE_REQUIRES_ADMIN (spec 9), which it lacks. */
export type GuildFeatureName = GuildFeature | "PRUNE_REQUIRES_ADMIN";

/** Stored features were validated against the platform's feature names when written. */
export function parseFeatures(json: string): GuildFeatureName[] {
  return JSON.parse(json) as GuildFeatureName[];
}

/** A guild's emoji and sticker rows, which its object lists. */
export type GuildExpressionRows = { emojis: readonly Emoji[]; stickers: readonly Sticker[] };

/** What a guild read includes for its object: roles, emojis and stickers (in upload order). */
export const GUILD_OBJECT_INCLUDE = { roles: true, emojis: { orderBy: { id: "asc" } }, stickers: { orderBy: { id: "asc" } } } as const;

/** The emojis and stickers of the guild object, GUILD_CREATE and the preview (no uploader: that is for the lists). */
function expressionObjects(roles: readonly Role[], expressions: GuildExpressionRows) {
  const roleIds = new Set(roles.map((role) => role.id));
  return { emojis: expressions.emojis.map((row) => toEmojiObject(row, roleIds)), stickers: expressions.stickers.map((row) => toStickerObject(row)) };
}

export type GuildCounts = { approximate_member_count: number; approximate_presence_count: number };

/** Guild fields APIGuild has optional that the guild object always carries. */
type AlwaysSent =
  | "region"
  | "widget_enabled"
  | "widget_channel_id"
  | "max_presences"
  | "max_members"
  | "max_video_channel_users"
  | "max_stage_video_channel_users"
  | "premium_subscription_count"
  | "stickers";

/**
 * The guild object as the platform sends it, which is not quite APIGuild: it also carries
 * `home_header` and the older `nsfw` boolean, a feature APIGuild does not know, and no
 * `hub_type` (docs/wire-differences.md).
 */
export type GuildObject = Omit<APIGuild, "hub_type" | "roles" | "features"> &
  Required<Pick<APIGuild, AlwaysSent>> & { roles: RoleObject[]; features: GuildFeatureName[]; home_header: null; nsfw: boolean };

/** Guild row → the platform's guild object. */
export function toGuildObject(guild: Guild, roles: readonly Role[], expressions: GuildExpressionRows, counts?: GuildCounts): GuildObject {
  const incidents = guild.invitesDisabledUntil ?? guild.dmsDisabledUntil;
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    description: guild.description,
    home_header: null,
    splash: guild.splash,
    discovery_splash: guild.discoverySplash,
    features: parseFeatures(guild.features),
    banner: guild.banner,
    owner_id: guild.ownerId,
    application_id: guild.applicationId,
    region: guild.region ?? "deprecated",
    afk_channel_id: guild.afkChannelId,
    // Written only from the platform's allowed values (guild.schema.ts).
    afk_timeout: guild.afkTimeout as APIGuild["afk_timeout"],
    system_channel_id: guild.systemChannelId,
    system_channel_flags: guild.systemChannelFlags,
    widget_enabled: guild.widgetEnabled,
    widget_channel_id: guild.widgetChannelId,
    verification_level: guild.verificationLevel,
    roles: sortRoles(roles).map(toRoleObject),
    default_message_notifications: guild.defaultMessageNotifications,
    mfa_level: guild.mfaLevel,
    explicit_content_filter: guild.explicitContentFilter,
    max_presences: null,
    max_members: guild.maxMembers,
    max_stage_video_channel_users: guild.maxStageVideoChannelUsers,
    max_video_channel_users: guild.maxVideoChannelUsers,
    vanity_url_code: guild.vanityUrlCode,
    premium_tier: guild.premiumTier,
    premium_subscription_count: guild.premiumSubscriptionCount,
    // Written only from the platform's locales (guild.schema.ts).
    preferred_locale: guild.preferredLocale as Locale,
    rules_channel_id: guild.rulesChannelId,
    safety_alerts_channel_id: guild.safetyAlertsChannelId,
    public_updates_channel_id: guild.publicUpdatesChannelId,
    premium_progress_bar_enabled: guild.premiumProgressBarEnabled,
    // The platform still sends the older boolean beside the level: true for the age-restricting levels.
    nsfw: guild.nsfwLevel === GuildNSFWLevel.Explicit || guild.nsfwLevel === GuildNSFWLevel.AgeRestricted,
    nsfw_level: guild.nsfwLevel,
    ...expressionObjects(roles, expressions),
    incidents_data: incidents
      ? { invites_disabled_until: guild.invitesDisabledUntil?.toISOString() ?? null, dms_disabled_until: guild.dmsDisabledUntil?.toISOString() ?? null }
      : null,
    ...counts,
  } satisfies GuildObject;
}

/** What GUILD_CREATE adds to the guild object for the user it is sent to: their join time, the guild's channels, members, ... */
type GuildCreateExtras = Omit<GatewayGuildCreateDispatchData, keyof APIGuild>;

/** GUILD_CREATE's payload: the guild object (with its differences from APIGuild) and the extras. */
export type GuildCreateObject = GuildObject & GuildCreateExtras;

export function toGuildCreateObject(guild: GuildObject, extras: GuildCreateExtras): GuildCreateObject {
  return { ...guild, ...extras };
}

/** The guild preview object; `home_header` and `features` as in the guild object. */
type GuildPreviewObject = Omit<APIGuildPreview, "features"> & { features: GuildFeatureName[]; home_header: null };

/** The guild preview object (GET /guilds/{id}/preview). */
export function toGuildPreview(guild: Guild & GuildExpressionRows & { roles: readonly Role[] }, counts: GuildCounts): GuildPreviewObject {
  const { emojis, stickers } = expressionObjects(guild.roles, guild);
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    splash: guild.splash,
    discovery_splash: guild.discoverySplash,
    home_header: null,
    emojis,
    features: parseFeatures(guild.features),
    description: guild.description,
    stickers,
    ...counts,
  } satisfies GuildPreviewObject;
}
