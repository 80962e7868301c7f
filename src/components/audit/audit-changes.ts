// Each change of an audit entry as a line in words: "Permissions: added Manage events",
// "NSFW: turned on", "Parent: #general → Information". Ids become names, colours swatches.
import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";
import type { AuditChange } from "~/server/audit/audit-entry-writer.ts";
import { humanize } from "~/components/format.ts";
import { kindOf, refTo, type Lookup, type Part, type RefKind } from "./audit-refs.ts";
import { enumValue, flagsWords, formatWhen, permissionNames, quoted, secondsWords, timeoutLength, toBits, type FlagsKind } from "./audit-values.ts";

/** What the entry is about, which decides how `type` and `flags` read. */
export type Subject =
  "guild" | "channel" | "overwrite" | "member" | "role" | "invite" | "webhook" | "integration" | "prompt" | "onboarding" | "event" | "other";

/** Whether the entry made, changed or removed its target: a create lists values, a delete what they were. */
export type Phase = "create" | "update" | "delete";

export type ChangeLine = { key: string; field: string; parts: Part[] };

export type ChangeContext = { lookup: Lookup; subject: Subject; phase: Phase; entryId: string };

const FIELDS: Record<string, string> = {
  name: "Name",
  permissions: "Permissions",
  allow: "Allowed",
  deny: "Denied",
  color: "Colour",
  colors: "Colours",
  hoist: "Shown separately",
  mentionable: "Mentionable by anyone",
  icon_hash: "Icon",
  unicode_emoji: "Emoji",
  nick: "Nickname",
  mute: "Server muted",
  deaf: "Server deafened",
  communication_disabled_until: "Timeout",
  avatar_hash: "Guild avatar",
  banner_hash: "Guild banner",
  topic: "Topic",
  nsfw: "Age-restricted",
  rate_limit_per_user: "Slowmode",
  default_thread_rate_limit_per_user: "Slowmode in new threads",
  parent_id: "Category",
  position: "Position",
  bitrate: "Bitrate",
  user_limit: "User limit",
  rtc_region: "Voice region",
  available_tags: "Tags",
  applied_tags: "Tags",
  default_reaction_emoji: "Default reaction",
  default_auto_archive_duration: "Hide after inactivity",
  auto_archive_duration: "Hide after inactivity",
  archived: "Archived",
  locked: "Locked",
  invitable: "Members can invite",
  code: "Code",
  channel_id: "Channel",
  inviter_id: "Made by",
  uses: "Uses",
  max_uses: "Maximum uses",
  max_age: "Expires after",
  temporary: "Temporary membership",
  afk_channel_id: "Inactive channel",
  afk_timeout: "Inactive timeout",
  system_channel_id: "System messages channel",
  system_channel_flags: "System messages",
  rules_channel_id: "Rules channel",
  public_updates_channel_id: "Community updates channel",
  safety_alerts_channel_id: "Safety alerts channel",
  widget_channel_id: "Widget invite channel",
  widget_enabled: "Widget",
  preferred_locale: "Primary language",
  premium_progress_bar_enabled: "Boost progress bar",
  vanity_url_code: "Vanity URL",
  welcome_screen: "Welcome screen",
  default_channel_ids: "Default channels",
  enabled: "Enabled",
  mode: "Mode",
  title: "Question",
  options: "Answers",
  single_select: "One answer only",
  required: "Required",
  in_onboarding: "Asked during onboarding",
  application_id: "App",
  entity_type: "Where",
  icon: "Icon",
  splash: "Invite background",
  discovery_splash: "Discovery background",
  banner: "Banner",
  id: "Applies to",
};

const BOOLEAN_KEYS = new Set([
  "hoist",
  "mentionable",
  "mute",
  "deaf",
  "nsfw",
  "archived",
  "locked",
  "invitable",
  "temporary",
  "premium_progress_bar_enabled",
  "widget_enabled",
  "enabled",
  "single_select",
  "required",
  "in_onboarding",
]);
const PERMISSION_KEYS = new Set(["permissions", "allow", "deny"]);
const CHANNEL_KEYS = new Set([
  "channel_id",
  "parent_id",
  "afk_channel_id",
  "system_channel_id",
  "rules_channel_id",
  "public_updates_channel_id",
  "safety_alerts_channel_id",
  "widget_channel_id",
]);
const IMAGE_KEYS = new Set(["icon", "splash", "discovery_splash", "banner", "icon_hash", "avatar_hash", "banner_hash"]);
const SECONDS_KEYS = new Set(["rate_limit_per_user", "default_thread_rate_limit_per_user", "afk_timeout", "max_age"]);
const MINUTES_KEYS = new Set(["auto_archive_duration", "default_auto_archive_duration"]);

/** "COMMUNITY" / "VANITY_URL" → "Community" / "Vanity url". */
function featureName(feature: unknown): string {
  return humanize(String(feature).toLowerCase());
}

function fieldOf(key: string): string {
  return FIELDS[key] ?? humanize(key);
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A list in words: "a, b and c". */
function joinWords(parts: readonly Part[][]): Part[] {
  const out: Part[] = [];
  parts.forEach((part, index) => {
    if (index > 0) out.push(index === parts.length - 1 ? " and " : ", ");
    out.push(...part);
  });
  return out;
}

function bitsLine(before: unknown, after: unknown, phase: Phase): Part[] {
  const old = toBits(before);
  const next = toBits(after);
  if (phase !== "update") {
    const names = permissionNames(phase === "create" ? next : old);
    const list = names.length ? names.join(", ") : "none";
    return [phase === "create" ? list : `was ${list}`];
  }
  const added = permissionNames(next & ~old);
  const removed = permissionNames(old & ~next);
  const words: string[] = [];
  if (added.length) words.push(`added ${added.join(", ")}`);
  if (removed.length) words.push(`removed ${removed.join(", ")}`);
  return [words.join("; ") || "no change"];
}

function flagsKindOf(key: string, subject: Subject): FlagsKind {
  if (key === "system_channel_flags") return "system_channel";
  if (subject === "channel") return "channel";
  if (subject === "member") return "member";
  return "other";
}

function typeSubject(subject: Subject): "channel" | "webhook" | "prompt" | "overwrite" | "other" {
  return subject === "channel" || subject === "webhook" || subject === "prompt" || subject === "overwrite" ? subject : "other";
}

type Option = { title?: unknown };
type WelcomeScreen = { description?: unknown; welcome_channels?: { channel_id?: unknown; description?: unknown }[] };

/** One value in words; null when there is none. */
function valueParts(key: string, value: unknown, ctx: ChangeContext): Part[] | null {
  if (!isSet(value)) return null;
  const { lookup } = ctx;
  if (CHANNEL_KEYS.has(key) && typeof value === "string") return [{ ref: refTo(lookup, "channel", value) }];
  if (key === "inviter_id" && typeof value === "string") return [{ ref: refTo(lookup, "user", value) }];
  if (key === "id" && typeof value === "string") {
    const kind: RefKind = kindOf(lookup, value) === "user" ? "user" : "role";
    return [{ ref: refTo(lookup, kind, value) }];
  }
  if (key === "color" && typeof value === "number") return value === 0 ? ["Default"] : [{ color: value }];
  if (key === "colors" && typeof value === "object") {
    const colors = Object.values(value as Record<string, unknown>).filter((c): c is number => typeof c === "number");
    return colors.length ? colors.map((color) => ({ color })) : ["Default"];
  }
  if (IMAGE_KEYS.has(key)) return ["an image"];
  if (key === "communication_disabled_until" && typeof value === "string")
    return [`until ${formatWhen(value)} (${timeoutLength(snowflakeTimestamp(ctx.entryId).getTime(), value)})`];
  if (SECONDS_KEYS.has(key) && typeof value === "number") return [secondsWords(key, value)];
  if (MINUTES_KEYS.has(key) && typeof value === "number") return [secondsWords(key, value * 60)];
  if ((key === "max_uses" || key === "user_limit") && value === 0) return ["No limit"];
  if (key === "bitrate" && typeof value === "number") return [`${Math.round(value / 1000)} kbps`];
  if (key === "flags" || key === "system_channel_flags") {
    const words = flagsWords(flagsKindOf(key, ctx.subject), Number(value));
    return [words.length ? words.join(", ") : "none"];
  }
  if (typeof value === "number") {
    const word = enumValue(key, value, typeSubject(ctx.subject));
    if (word) return [word];
  }
  if (key === "rtc_region" || key === "region") return [String(value) || "Automatic"];
  if (key === "default_channel_ids" && Array.isArray(value)) {
    return value.length ? joinWords(value.map((id) => [{ ref: refTo(lookup, "channel", String(id)) }])) : ["none"];
  }
  if (key === "features" && Array.isArray(value)) return [value.length ? value.map(featureName).join(", ") : "none"];
  if (key === "available_tags" && Array.isArray(value)) {
    return [
      value.length
        ? value
            .map((tag) => (tag as { name?: unknown }).name)
            .filter(Boolean)
            .join(", ")
        : "none",
    ];
  }
  if (key === "applied_tags" && Array.isArray(value)) return [value.length === 1 ? "1 tag" : `${value.length} tags`];
  if (key === "default_reaction_emoji" && typeof value === "object") {
    const emoji = value as { emoji_name?: unknown; emoji_id?: unknown };
    return [typeof emoji.emoji_name === "string" ? emoji.emoji_name : "a custom emoji"];
  }
  if (key === "options" && Array.isArray(value)) {
    const titles = (value as Option[]).map((o) => (typeof o.title === "string" ? quoted(o.title) : "an answer"));
    return [titles.length ? `${titles.length === 1 ? "1 answer" : `${titles.length} answers`}: ${titles.join(", ")}` : "none"];
  }
  if (key === "welcome_screen" && typeof value === "object") return welcomeParts(value as WelcomeScreen, ctx);
  if (key === "$add" || key === "$remove") return roleListParts(value, ctx);
  if (typeof value === "string") return [key === "name" || key === "code" || key === "vanity_url_code" ? value : quoted(value)];
  if (typeof value === "number") return [value.toLocaleString("en-US")];
  if (typeof value === "boolean") return [value ? "Yes" : "No"];
  if (Array.isArray(value)) return [value.length === 1 ? "1 item" : `${value.length} items`];
  return [`${Object.keys(value as object).length} settings`];
}

function welcomeParts(screen: WelcomeScreen, ctx: ChangeContext): Part[] {
  const channels = screen.welcome_channels ?? [];
  const parts: Part[] = [typeof screen.description === "string" && screen.description ? `description ${quoted(screen.description)}` : "no description"];
  parts.push(channels.length ? `; ${channels.length === 1 ? "1 channel" : `${channels.length} channels`}: ` : "; no channels");
  parts.push(...joinWords(channels.map((c) => [{ ref: refTo(ctx.lookup, "channel", String(c.channel_id)) }])));
  return parts;
}

/** Roles given or taken ($add/$remove): their names as recorded, current ones linked. */
export function roleListParts(value: unknown, ctx: ChangeContext): Part[] {
  const roles = Array.isArray(value) ? (value as { id?: unknown; name?: unknown }[]) : [];
  return joinWords(
    roles.map((role) => [
      {
        ref: refTo(ctx.lookup, "role", String(role.id), { ...(typeof role.name === "string" && { fallbackName: role.name }) }),
      },
    ]),
  );
}

/** Lists of ids (default channels): who joined and who left the list. */
function listDiff(key: string, before: unknown, after: unknown, ctx: ChangeContext): Part[] {
  const old = new Set(Array.isArray(before) ? before.map(String) : []);
  const next = new Set(Array.isArray(after) ? after.map(String) : []);
  const describe = (ids: string[]) =>
    key === "features" ? [ids.map(featureName).join(", ")] : joinWords(ids.map((id) => [{ ref: refTo(ctx.lookup, "channel", id) }]));
  const added = [...next].filter((id) => !old.has(id));
  const removed = [...old].filter((id) => !next.has(id));
  const parts: Part[] = [];
  if (added.length) parts.push("added ", ...describe(added));
  if (removed.length) parts.push(added.length ? "; removed " : "removed ", ...describe(removed));
  return parts.length ? parts : ["reordered"];
}

/** One change in words. */
export function describeChange(change: AuditChange, ctx: ChangeContext): ChangeLine {
  const { key } = change;
  const line = (parts: Part[]): ChangeLine => ({ key, field: fieldOf(key), parts });
  if (key === "$add") return { key, field: "Roles given", parts: roleListParts(change.new_value, ctx) };
  if (key === "$remove") return { key, field: "Roles taken", parts: roleListParts(change.new_value, ctx) };
  const { phase } = ctx;
  if (PERMISSION_KEYS.has(key)) return line(bitsLine(change.old_value, change.new_value, phase));
  if (BOOLEAN_KEYS.has(key)) {
    const on = Boolean(phase === "delete" ? change.old_value : change.new_value);
    if (phase === "update") return line([on ? "turned on" : "turned off"]);
    return line([phase === "delete" ? `was ${on ? "on" : "off"}` : on ? "on" : "off"]);
  }
  if (phase === "update" && (key === "default_channel_ids" || key === "features")) return line(listDiff(key, change.old_value, change.new_value, ctx));
  if (key === "communication_disabled_until" && phase === "update" && !isSet(change.new_value)) return line(["removed"]);
  if (IMAGE_KEYS.has(key) && phase === "update") return line([!isSet(change.new_value) ? "removed" : !isSet(change.old_value) ? "added" : "changed"]);
  if (key === "position" && phase === "update") return line([`moved from ${String(change.old_value)} to ${String(change.new_value)}`]);
  const before = valueParts(key, change.old_value, ctx);
  const after = valueParts(key, change.new_value, ctx);
  if (phase === "create") return line(after ?? ["none"]);
  if (phase === "delete") return line(["was ", ...(before ?? ["none"])]);
  return line([...(before ?? ["none"]), " → ", ...(after ?? ["none"])]);
}
