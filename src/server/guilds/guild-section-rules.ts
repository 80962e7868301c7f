// Who may use each guild-wide section of the dashboard: the decisions the guild, guild-config,
// audit, integration and invite services enforce and the dashboard shows beside its controls.
import { GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import { missing, missingIn, type Denial } from "~/server/permissions/denial.ts";
import type { GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { parseFeatures } from "./guild.dto.ts";
import { MUTABLE_FEATURES } from "./guild.schema.ts";

export type MutableFeature = keyof typeof MUTABLE_FEATURES;

/**
 * MANAGE_GUILD: PATCH /guilds/{guild.id}, its widget, welcome screen, vanity URL,
 * integrations and incident actions.
 */
export function manageGuildDenial(access: GuildAccess): Denial | null {
  return missing(access, P.ManageGuild);
}

/** Switching one of the features PATCH /guilds/{guild.id} may change needs what the spec names for it, beyond MANAGE_GUILD. */
export function featureDenial(access: GuildAccess, feature: MutableFeature): Denial | null {
  const needs = MUTABLE_FEATURES[feature];
  const denial = manageGuildDenial(access);
  if (denial || needs === "manage_guild") return denial;
  return needs === "administrator" ? missing(access, P.Administrator) : ownerDenial(access, "Only the owner can change this.");
}

/** The images PATCH /guilds/{guild.id} takes, the feature each needs, and what an animated one needs besides. */
const IMAGE_FEATURES = {
  icon: { still: null, animated: GuildFeature.AnimatedIcon },
  banner: { still: GuildFeature.Banner, animated: GuildFeature.AnimatedBanner },
  splash: { still: GuildFeature.InviteSplash, animated: null },
  discovery_splash: { still: GuildFeature.Discoverable, animated: null },
} as const;

export type GuildImageField = keyof typeof IMAGE_FEATURES;
export const GUILD_IMAGE_FIELDS = Object.keys(IMAGE_FEATURES) as GuildImageField[];

/** Setting one of the guild's images: the guild (with `features`, as the change leaves them) needs the image's feature. */
export function guildImageDenial(features: readonly string[], field: GuildImageField, animated = false): Denial | null {
  const { still, animated: moving } = IMAGE_FEATURES[field];
  const lacking = [still, animated ? moving : null].find((feature) => feature !== null && !features.includes(feature));
  if (!lacking) return null;
  const name = lacking
    .toLowerCase()
    .replaceAll("_", " ")
    .replace(/\b\w/g, (c) => c.toUpperCase());
  return { error: "INVALID_FORM_BODY", reason: `Needs the ${name} feature, which this guild doesn't have.` };
}

/** DELETE /guilds/{guild.id} and owner-only features. */
export function ownerDenial(access: GuildAccess, reason = "Only the owner can delete this guild."): Denial | null {
  return access.isOwner ? null : { error: "MISSING_PERMISSIONS", reason };
}

/** PATCH /guilds/{guild.id} with owner_id: only the owner hands the guild over. */
export function transferOwnershipDenial(access: GuildAccess): Denial | null {
  return ownerDenial(access, "Only the owner can transfer ownership.");
}

/** Who may be made owner: any member of the guild, bots included. */
export function newOwnerDenial(isMember: boolean): Denial | null {
  return isMember ? null : { error: "UNKNOWN_MEMBER", reason: "Only a member of this guild can become its owner." };
}

/** GET /guilds/{guild.id}/welcome-screen: any member while it is shown, else MANAGE_GUILD. */
export function welcomeScreenReadDenial(access: GuildAccess): Denial | null {
  return parseFeatures(access.guild.features).includes(GuildFeature.WelcomeScreenEnabled) ? null : manageGuildDenial(access);
}

/** PUT /guilds/{guild.id}/onboarding: its prompts give roles, so MANAGE_ROLES too. */
export function onboardingDenial(access: GuildAccess): Denial | null {
  return missing(access, P.ManageGuild, P.ManageRoles);
}

/** GET /guilds/{guild.id}/audit-logs. */
export function auditLogDenial(access: GuildAccess): Denial | null {
  return missing(access, P.ViewAuditLog);
}

/** GET /guilds/{guild.id}/invites: MANAGE_GUILD (with uses) or VIEW_AUDIT_LOG (without). */
export function inviteListDenial(access: GuildAccess): Denial | null {
  if (!manageGuildDenial(access) || !auditLogDenial(access)) return null;
  return { error: "MISSING_PERMISSIONS", reason: "Needs Manage guild or View audit log." };
}

/** POST /channels/{channel.id}/invites: CREATE_INSTANT_INVITE in that channel (`inChannel`). */
export function inviteCreateDenial(access: GuildAccess, inChannel: bigint, where = " in this channel"): Denial | null {
  return missingIn(access, inChannel, [P.CreateInstantInvite], where);
}

/** DELETE /invites/{invite.code}: MANAGE_GUILD, or MANAGE_CHANNELS in the invite's channel (`inChannel`). */
export function inviteRevokeDenial(access: GuildAccess, inChannel: bigint): Denial | null {
  if (!manageGuildDenial(access) || hasPermission(inChannel, P.ManageChannels)) return null;
  return { error: "MISSING_PERMISSIONS", reason: "Needs Manage guild, or Manage channels in this channel." };
}
