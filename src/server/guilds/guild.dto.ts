import { GuildNSFWLevel } from "discord-api-types/v10";
import type { Guild, Role } from "~/generated/prisma/client.ts";
import { toRoleObject, sortRoles, type RoleObject } from "~/server/roles/role.dto.ts";

export function parseFeatures(json: string): string[] {
  return JSON.parse(json) as string[];
}

export type GuildCounts = { approximate_member_count: number; approximate_presence_count: number };

/** Guild row → the platform's guild object. */
export function toGuildObject(guild: Guild, roles: readonly Role[], counts?: GuildCounts) {
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
    afk_timeout: guild.afkTimeout,
    system_channel_id: guild.systemChannelId,
    system_channel_flags: guild.systemChannelFlags,
    widget_enabled: guild.widgetEnabled,
    widget_channel_id: guild.widgetChannelId,
    verification_level: guild.verificationLevel,
    roles: sortRoles(roles).map(toRoleObject) satisfies RoleObject[],
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
    preferred_locale: guild.preferredLocale,
    rules_channel_id: guild.rulesChannelId,
    safety_alerts_channel_id: guild.safetyAlertsChannelId,
    public_updates_channel_id: guild.publicUpdatesChannelId,
    premium_progress_bar_enabled: guild.premiumProgressBarEnabled,
    // The platform still sends the older boolean beside the level: true for the age-restricting levels.
    nsfw: guild.nsfwLevel === GuildNSFWLevel.Explicit || guild.nsfwLevel === GuildNSFWLevel.AgeRestricted,
    nsfw_level: guild.nsfwLevel,
    emojis: [],
    stickers: [],
    incidents_data: incidents
      ? { invites_disabled_until: guild.invitesDisabledUntil?.toISOString() ?? null, dms_disabled_until: guild.dmsDisabledUntil?.toISOString() ?? null }
      : null,
    ...counts,
  };
}

export type GuildObject = ReturnType<typeof toGuildObject>;

/** The guild preview object (GET /guilds/{id}/preview). */
export function toGuildPreview(guild: Guild, counts: GuildCounts) {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    splash: guild.splash,
    discovery_splash: guild.discoverySplash,
    home_header: null,
    emojis: [],
    features: parseFeatures(guild.features),
    description: guild.description,
    stickers: [],
    ...counts,
  };
}
