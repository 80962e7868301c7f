import {
  ChannelType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildFeature,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  Locale,
} from "discord-api-types/v10";
import { AFK_TIMEOUTS, type MUTABLE_FEATURES } from "~/server/guilds/guild.schema.ts";

export const VERIFICATION_LEVELS = [
  { value: String(GuildVerificationLevel.None), label: "None", description: "Unrestricted" },
  { value: String(GuildVerificationLevel.Low), label: "Low", description: "Must have a verified e-mail" },
  { value: String(GuildVerificationLevel.Medium), label: "Medium", description: "Registered for longer than 5 minutes" },
  { value: String(GuildVerificationLevel.High), label: "High", description: "Member of the guild for longer than 10 minutes" },
  { value: String(GuildVerificationLevel.VeryHigh), label: "Highest", description: "Must have a verified phone number" },
];

export const NOTIFICATION_LEVELS = [
  { value: String(GuildDefaultMessageNotifications.AllMessages), label: "All messages" },
  { value: String(GuildDefaultMessageNotifications.OnlyMentions), label: "Only @mentions" },
];

export const CONTENT_FILTERS = [
  { value: String(GuildExplicitContentFilter.Disabled), label: "Don't scan media" },
  { value: String(GuildExplicitContentFilter.MembersWithoutRoles), label: "Scan media from members without a role" },
  { value: String(GuildExplicitContentFilter.AllMembers), label: "Scan media from all members" },
];

function duration(seconds: number): string {
  return seconds < 3600 ? `${seconds / 60} minute${seconds === 60 ? "" : "s"}` : `${seconds / 3600} hour`;
}

export const AFK_TIMEOUT_OPTIONS = AFK_TIMEOUTS.map((seconds) => ({ value: String(seconds), label: duration(seconds) }));

/** System channel messages, phrased as what is sent: each checkbox is the inverse of its SUPPRESS_ flag. */
export const SYSTEM_CHANNEL_MESSAGES = [
  { flag: GuildSystemChannelFlags.SuppressJoinNotifications, label: "Send a random welcome message when someone joins" },
  { flag: GuildSystemChannelFlags.SuppressJoinNotificationReplies, label: "Prompt members to reply to welcome messages with a sticker" },
  { flag: GuildSystemChannelFlags.SuppressPremiumSubscriptions, label: "Send a message when someone boosts the guild" },
  { flag: GuildSystemChannelFlags.SuppressGuildReminderNotifications, label: "Send helpful tips for setting up the guild" },
  { flag: GuildSystemChannelFlags.SuppressRoleSubscriptionPurchaseNotifications, label: "Send a message when someone buys or renews a role subscription" },
  {
    flag: GuildSystemChannelFlags.SuppressRoleSubscriptionPurchaseNotificationReplies,
    label: "Prompt members to reply to role subscription messages with a sticker",
  },
];

const languageNames = new Intl.DisplayNames(["en"], { type: "language" });

export const LOCALE_OPTIONS = Object.values(Locale)
  .map((code) => ({ value: code, label: `${languageNames.of(code) ?? code} (${code})` }))
  .sort((a, b) => a.label.localeCompare(b.label));

type MutableFeature = keyof typeof MUTABLE_FEATURES;

export const FEATURE_TOGGLES: readonly { feature: MutableFeature; label: string; description: string }[] = [
  { feature: GuildFeature.Community, label: "Community", description: "Turns on community tools such as the rules and public updates channels." },
  { feature: GuildFeature.Discoverable, label: "Discoverable", description: "Lists the guild publicly so people can find and join it." },
  { feature: GuildFeature.InvitesDisabled, label: "Pause invites", description: "Nobody new can join through an invite while this is on." },
  { feature: GuildFeature.RaidAlertsDisabled, label: "Turn off raid alerts", description: "Stops alerts about unusual bursts of people joining." },
  { feature: GuildFeature.PruneRequiresAdmin, label: "Pruning needs Administrator", description: "Only administrators may prune inactive members." },
];

export const VOICE_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildVoice];
export const TEXT_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement];
