// Audit change values in words: permission and flag bitfields as names, durations, enums,
// dates. Pure, so every wording is unit-tested.
import {
  ChannelFlags,
  ChannelType,
  ForumLayoutType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMemberFlags,
  GuildOnboardingMode,
  GuildOnboardingPromptType,
  GuildScheduledEventEntityType,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  SortOrderType,
  VideoQualityMode,
  WebhookType,
} from "discord-api-types/v10";
import { humanize } from "~/components/format.ts";
import { formatDateTime } from "~/components/time/time-format.ts";
import { PERMISSION_GROUPS } from "~/components/roles/permission-catalog.ts";

const UNITS: readonly [ms: number, one: string][] = [
  [7 * 24 * 3600_000, "week"],
  [24 * 3600_000, "day"],
  [3600_000, "hour"],
  [60_000, "minute"],
  [1000, "second"],
];

/** "1 hour", "2 days", "1 day 6 hours": at most the two largest units, rounded to the second. */
export function formatDuration(ms: number): string {
  let rest = Math.round(Math.max(ms, 0) / 1000) * 1000;
  if (rest === 0) return "0 seconds";
  const words: string[] = [];
  for (const [size, one] of UNITS) {
    const count = Math.floor(rest / size);
    if (count === 0) continue;
    words.push(`${count} ${one}${count === 1 ? "" : "s"}`);
    rest -= count * size;
    if (words.length === 2) break;
  }
  return words.join(" ");
}

/**
 * The timeout the moderator picked: from the entry's moment to its end, to the nearest minute
 * (the request takes a moment between the two clocks).
 */
export function timeoutLength(fromMs: number, until: string): string {
  const ms = Date.parse(until) - fromMs;
  return formatDuration(ms >= 60_000 ? Math.round(ms / 60_000) * 60_000 : ms);
}

export function formatWhen(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatDateTime(date);
}

/** Permission names of a bitfield (as the roles page names them), in the catalog's order. */
export function permissionNames(bits: bigint): string[] {
  return PERMISSION_GROUPS.flatMap((group) => group.permissions.filter((p) => (bits & p.bit) === p.bit).map((p) => p.label));
}

export function toBits(value: unknown): bigint {
  if (typeof value === "string" && /^\d+$/.test(value)) return BigInt(value);
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  return 0n;
}

type FlagSet = Record<string, string | number>;

/** The names of the set bits of a flags number, from the enum that names them. */
function flagNames(flags: FlagSet, value: number, labels: Partial<Record<string, string>> = {}): string[] {
  return Object.entries(flags)
    .filter((pair): pair is [string, number] => typeof pair[1] === "number" && (value & pair[1]) !== 0)
    .map(([name]) => labels[name] ?? humanize(name));
}

const SYSTEM_CHANNEL_LABELS: Partial<Record<string, string>> = {
  SuppressJoinNotifications: "No join messages",
  SuppressPremiumSubscriptions: "No boost messages",
  SuppressGuildReminderNotifications: "No setup tips",
  SuppressJoinNotificationReplies: "No sticker replies to joins",
  SuppressRoleSubscriptionPurchaseNotifications: "No role subscription messages",
  SuppressRoleSubscriptionPurchaseNotificationReplies: "No sticker replies to role subscriptions",
};

/** The flag enum a `flags` change means, by what the entry is about. */
export type FlagsKind = "channel" | "member" | "system_channel" | "other";

export function flagsWords(kind: FlagsKind, value: number): string[] {
  if (kind === "channel") return flagNames(ChannelFlags, value, { RequireTag: "Require a tag", Pinned: "Pinned" });
  if (kind === "member") return flagNames(GuildMemberFlags, value, { BypassesVerification: "Bypasses verification" });
  if (kind === "system_channel") return flagNames(GuildSystemChannelFlags, value, SYSTEM_CHANNEL_LABELS);
  return value === 0 ? [] : [`flags ${value}`];
}

const CHANNEL_TYPE_WORDS: Partial<Record<number, string>> = {
  [ChannelType.GuildText]: "Text channel",
  [ChannelType.GuildVoice]: "Voice channel",
  [ChannelType.GuildCategory]: "Category",
  [ChannelType.GuildAnnouncement]: "Announcement channel",
  [ChannelType.AnnouncementThread]: "Announcement thread",
  [ChannelType.PublicThread]: "Public thread",
  [ChannelType.PrivateThread]: "Private thread",
  [ChannelType.GuildStageVoice]: "Stage channel",
  [ChannelType.GuildForum]: "Forum channel",
  [ChannelType.GuildMedia]: "Media channel",
};

function enumWord(values: FlagSet, value: number, labels: Partial<Record<string, string>> = {}): string {
  const name = (values as Record<number, string | undefined>)[value];
  return name ? (labels[name] ?? humanize(name)) : String(value);
}

/** Enumerated values by change key; `type` depends on what the entry is about (`typeOf`). */
export function enumValue(key: string, value: number, typeOf: "channel" | "webhook" | "prompt" | "overwrite" | "other"): string | undefined {
  switch (key) {
    case "verification_level":
      return enumWord(GuildVerificationLevel, value, { VeryHigh: "Highest" });
    case "explicit_content_filter":
      return enumWord(GuildExplicitContentFilter, value, {
        Disabled: "Don't scan",
        MembersWithoutRoles: "Scan members without a role",
        AllMembers: "Scan everyone",
      });
    case "default_message_notifications":
      return enumWord(GuildDefaultMessageNotifications, value, { AllMessages: "All messages", OnlyMentions: "Only mentions" });
    case "video_quality_mode":
      return enumWord(VideoQualityMode, value, { Auto: "Automatic", Full: "720p" });
    case "default_sort_order":
      return enumWord(SortOrderType, value, { LatestActivity: "Recent activity", CreationDate: "Creation time" });
    case "default_forum_layout":
      return enumWord(ForumLayoutType, value, { NotSet: "Not set", ListView: "List", GalleryView: "Gallery" });
    case "mode":
      return enumWord(GuildOnboardingMode, value, { OnboardingDefault: "Default channels only", OnboardingAdvanced: "Default channels and questions" });
    case "entity_type":
      return enumWord(GuildScheduledEventEntityType, value, { StageInstance: "Stage", Voice: "Voice channel", External: "Somewhere else" });
    case "type":
      if (typeOf === "channel") return CHANNEL_TYPE_WORDS[value] ?? String(value);
      if (typeOf === "webhook") return enumWord(WebhookType, value, { ChannelFollower: "Channel follower" });
      if (typeOf === "prompt") return enumWord(GuildOnboardingPromptType, value, { MultipleChoice: "Multiple choice", Dropdown: "Drop-down" });
      if (typeOf === "overwrite") return value === 0 ? "Role" : "Member";
      return undefined;
    default:
      return undefined;
  }
}

/** A count of seconds as a setting: slowmode, AFK timeout, invite lifetime; zero has its own word. */
export function secondsWords(key: string, value: number): string {
  if (value === 0) return key === "max_age" ? "Never expires" : "Off";
  return formatDuration(value * 1000);
}

export function quoted(text: string): string {
  return `“${text}”`;
}
