// An audit entry as a sentence with names ("Demo User banned silver_otter"), a label, and
// every change and option in words. Pure: the page renders what this returns.
import { AuditLogEvent as A, ChannelType } from "discord-api-types/v10";
import type { AuditChange } from "~/server/audit/audit-entry-writer.ts";
import type { AuditLogEntryObject } from "~/server/audit/audit.dto.ts";
import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";
import { actionInfo, type Tone } from "./audit-actions.ts";
import { describeChange, roleListParts, type ChangeContext, type ChangeLine } from "./audit-changes.ts";
import { refTo, type GoneStyle, type Lookup, type Part, type Ref, type RefKind } from "./audit-refs.ts";
import { formatDuration, permissionNames, quoted, timeoutLength, toBits } from "./audit-values.ts";

export type DescribedEntry = {
  label: string;
  tone: Tone;
  /** Who did it, then what: "Demo User" + " banned " + silver_otter. */
  sentence: Part[];
  target: Ref | null;
  changes: ChangeLine[];
  /** The entry's options in words ("Channel: #general", "Members removed: 4"). */
  details: { field: string; parts: Part[] }[];
};

type Ctx = { entry: AuditLogEntryObject; lookup: Lookup; target: Ref | null; change: (key: string) => AuditChange | undefined; lines: ChangeLine[] };

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function recordedName(entry: AuditLogEntryObject): string | undefined {
  const named = entry.changes?.find((c) => c.key === "name" || c.key === "title");
  const value = named?.old_value ?? named?.new_value;
  return typeof value === "string" ? value : undefined;
}

function recordedType(entry: AuditLogEntryObject): number | undefined {
  const typed = entry.changes?.find((c) => c.key === "type");
  const value = typed?.new_value ?? typed?.old_value;
  return typeof value === "number" ? value : undefined;
}

function targetRef(entry: AuditLogEntryObject, lookup: Lookup, kind: RefKind | null): Ref | null {
  if (!kind || !entry.target_id) return null;
  const phase = actionInfo(entry.action_type).phase;
  const gone: GoneStyle = phase === "delete" ? "plain" : phase === "create" ? "since" : "prefix";
  const name = recordedName(entry);
  return refTo(lookup, kind, entry.target_id, { ...(name !== undefined && { fallbackName: name }), channelType: recordedType(entry), gone });
}

/** "Moderators", "Helpers (since deleted)": a target without "role"/"channel" before it reads as its own noun. */
const t = (ctx: Ctx): Part[] => (ctx.target ? [{ ref: ctx.target }] : ["something"]);

/** The field names of the changes, for "changed #general: Topic and Slowmode". */
function fieldList(lines: readonly ChangeLine[]): string {
  const fields = lines.map((l) => l.field.toLowerCase());
  if (fields.length <= 3) return fields.join(fields.length === 2 ? " and " : ", ");
  return `${fields.slice(0, 2).join(", ")} and ${fields.length - 2} more`;
}

function updated(ctx: Ctx, verb = "changed"): Part[] {
  return ctx.lines.length ? [`${verb} `, ...t(ctx), `: ${fieldList(ctx.lines)}`] : [`${verb} `, ...t(ctx)];
}

function channelNoun(ctx: Ctx): string {
  const type = recordedType(ctx.entry);
  if (type === ChannelType.GuildCategory) return "category";
  if (type === ChannelType.GuildVoice) return "voice channel";
  if (type === ChannelType.GuildStageVoice) return "stage channel";
  return "channel";
}

/** "renamed #general to #lobby", and what else changed with the name. */
function renamed(ctx: Ctx, noun = ""): Part[] | null {
  const name = ctx.change("name");
  if (!name || typeof name.old_value !== "string" || typeof name.new_value !== "string") return null;
  const prefix = ctx.target?.text.startsWith("#") ? "#" : "";
  const others = ctx.lines.filter((line) => line.key !== "name");
  return [`renamed ${noun}${prefix}${name.old_value} to `, ...t(ctx), ...(others.length ? [` and changed ${fieldList(others)}`] : [])];
}

/** The role or member an overwrite entry is for, from its options. */
function overwriteSubject(ctx: Ctx): Part[] {
  const options = ctx.entry.options ?? {};
  if (!options.id) return ["someone"];
  const kind: RefKind = options.type === "1" ? "user" : "role";
  return [{ ref: refTo(ctx.lookup, kind, options.id, { ...(options.role_name && { fallbackName: options.role_name }) }) }];
}

function roleUpdate(ctx: Ctx): Part[] {
  const permissions = ctx.change("permissions");
  if (ctx.lines.length === 1 && permissions) {
    const old = toBits(permissions.old_value);
    const next = toBits(permissions.new_value);
    const added = permissionNames(next & ~old);
    const removed = permissionNames(old & ~next);
    if (added.length && !removed.length) return [`granted ${added.join(", ")} to `, ...t(ctx)];
    if (removed.length && !added.length) return [`took ${removed.join(", ")} from `, ...t(ctx)];
    return ["changed the permissions of ", ...t(ctx), `: granted ${added.join(", ")}; took ${removed.join(", ")}`];
  }
  const position = ctx.change("position");
  if (ctx.lines.length === 1 && position) return ["moved ", ...t(ctx), ` from position ${String(position.old_value)} to ${String(position.new_value)}`];
  return renamed(ctx, "role ") ?? updated(ctx);
}

function memberUpdate(ctx: Ctx): Part[] {
  const timeout = ctx.change("communication_disabled_until");
  if (timeout && typeof timeout.new_value === "string") {
    return ["timed out ", ...t(ctx), ` for ${timeoutLength(snowflakeTimestamp(ctx.entry.id).getTime(), timeout.new_value)}`];
  }
  if (timeout) return ["removed the timeout of ", ...t(ctx)];
  const nick = ctx.change("nick");
  if (nick && ctx.lines.length === 1) {
    return typeof nick.new_value === "string" ? ["changed the nickname of ", ...t(ctx), ` to ${nick.new_value}`] : ["removed the nickname of ", ...t(ctx)];
  }
  for (const [key, on, off] of [
    ["mute", "server muted ", "unmuted "],
    ["deaf", "server deafened ", "undeafened "],
  ] as const) {
    const change = ctx.change(key);
    if (change && ctx.lines.length === 1) return [change.new_value ? on : off, ...t(ctx)];
  }
  return updated(ctx, "updated");
}

function memberRoles(ctx: Ctx): Part[] {
  const lineCtx: ChangeContext = { lookup: ctx.lookup, subject: "member", phase: "update", entryId: ctx.entry.id };
  const added = ctx.change("$add");
  const removed = ctx.change("$remove");
  const parts: Part[] = [];
  if (added) parts.push("gave ", ...t(ctx), " ", ...roleListParts(added.new_value, lineCtx));
  if (added && removed) parts.push(" and took away ", ...roleListParts(removed.new_value, lineCtx));
  else if (removed) parts.push("took ", ...roleListParts(removed.new_value, lineCtx), " from ", ...t(ctx));
  return parts.length ? parts : ["changed the roles of ", ...t(ctx)];
}

function optionChannel(ctx: Ctx): Part[] {
  const id = ctx.entry.options?.channel_id;
  return id ? [{ ref: refTo(ctx.lookup, "channel", id) }] : ["a channel"];
}

function inviteSentence(ctx: Ctx, verb: string): Part[] {
  const code = ctx.change("code");
  const value = code?.new_value ?? code?.old_value;
  const channel = ctx.change("channel_id");
  const channelId = channel?.new_value ?? channel?.old_value;
  const parts: Part[] = [`${verb} invite `, typeof value === "string" ? { ref: refTo(ctx.lookup, "invite", value, { gone: "plain" }) } : "an invite"];
  if (typeof channelId === "string") parts.push(" to ", { ref: refTo(ctx.lookup, "channel", channelId) });
  return parts;
}

function threadUpdate(ctx: Ctx): Part[] {
  const archived = ctx.change("archived");
  const locked = ctx.change("locked");
  if (ctx.lines.length === 1 && archived) return [archived.new_value ? "archived " : "reopened ", ...t(ctx)];
  if (ctx.lines.length === 1 && locked) return [locked.new_value ? "locked " : "unlocked ", ...t(ctx)];
  return renamed(ctx) ?? updated(ctx);
}

function onboardingUpdate(ctx: Ctx): Part[] {
  const enabled = ctx.change("enabled");
  if (enabled && ctx.lines.length === 1) return [enabled.new_value ? "turned on onboarding" : "turned off onboarding"];
  return ctx.lines.length ? [`changed onboarding: ${fieldList(ctx.lines)}`] : ["changed onboarding"];
}

function guildUpdate(ctx: Ctx): Part[] {
  const name = ctx.change("name");
  if (ctx.lines.length === 1 && name && typeof name.new_value === "string") return [`renamed the guild to ${name.new_value}`];
  const [only] = ctx.lines;
  if (only && ctx.lines.length === 1) return [`changed the guild's ${only.field.toLowerCase()}: `, ...only.parts];
  return ctx.lines.length ? [`changed the guild's settings: ${fieldList(ctx.lines)}`] : ["changed the guild's settings"];
}

function sentenceOf(ctx: Ctx): Part[] {
  const options = ctx.entry.options ?? {};
  const count = Number(options.count ?? 1);
  const named = recordedName(ctx.entry);
  const quotedName = named ? ` ${quoted(named)}` : "";
  switch (ctx.entry.action_type as A) {
    case A.GuildUpdate:
      return guildUpdate(ctx);
    case A.ChannelCreate:
      return [`created ${channelNoun(ctx)} `, ...t(ctx)];
    case A.ChannelUpdate:
      return renamed(ctx) ?? updated(ctx);
    case A.ChannelDelete:
      return [`deleted ${channelNoun(ctx)} `, ...t(ctx)];
    case A.ChannelOverwriteCreate:
      return ["added permission overrides for ", ...overwriteSubject(ctx), " in ", ...t(ctx)];
    case A.ChannelOverwriteUpdate:
      return ["changed the permission overrides for ", ...overwriteSubject(ctx), " in ", ...t(ctx)];
    case A.ChannelOverwriteDelete:
      return ["removed the permission overrides for ", ...overwriteSubject(ctx), " in ", ...t(ctx)];
    case A.MemberKick:
      return ["kicked ", ...t(ctx)];
    case A.MemberPrune:
      return [
        `pruned ${plural(Number(options.members_removed ?? 0), "member")} inactive for ${formatDuration(Number(options.delete_member_days ?? 0) * 86_400_000)}`,
      ];
    case A.MemberBanAdd:
      return ["banned ", ...t(ctx)];
    case A.MemberBanRemove:
      return ["lifted the ban on ", ...t(ctx)];
    case A.MemberUpdate:
      return memberUpdate(ctx);
    case A.MemberRoleUpdate:
      return memberRoles(ctx);
    case A.MemberMove:
      return [`moved ${plural(count, "member")} to `, ...optionChannel(ctx)];
    case A.MemberDisconnect:
      return [`disconnected ${plural(count, "member")} from voice`];
    case A.BotAdd:
      return ["added the bot ", ...t(ctx)];
    case A.RoleCreate:
      return ["created role ", ...t(ctx)];
    case A.RoleUpdate:
      return roleUpdate(ctx);
    case A.RoleDelete:
      return ["deleted role ", ...t(ctx)];
    case A.InviteCreate:
      return inviteSentence(ctx, "created");
    case A.InviteUpdate:
      return inviteSentence(ctx, "changed");
    case A.InviteDelete:
      return inviteSentence(ctx, "revoked");
    case A.WebhookCreate:
      return ["created webhook ", ...t(ctx)];
    case A.WebhookUpdate:
      return renamed(ctx, "webhook ") ?? updated(ctx);
    case A.WebhookDelete:
      return ["deleted webhook ", ...t(ctx)];
    case A.MessageDelete:
      return [
        `deleted ${plural(count, "message")} by `,
        ...t({ ...ctx, target: ctx.entry.target_id ? refTo(ctx.lookup, "user", ctx.entry.target_id) : null }),
        " in ",
        ...optionChannel(ctx),
      ];
    case A.MessageBulkDelete:
      return [`deleted ${plural(count, "message")} in `, ...t(ctx)];
    case A.MessagePin:
      return ["pinned a message in ", ...optionChannel(ctx)];
    case A.MessageUnpin:
      return ["unpinned a message in ", ...optionChannel(ctx)];
    case A.IntegrationCreate:
      return ["added integration ", ...t(ctx)];
    case A.IntegrationDelete:
      return ["removed integration ", ...t(ctx)];
    case A.GuildScheduledEventCreate:
      return ["scheduled event ", ...t(ctx)];
    case A.GuildScheduledEventDelete:
      return ["cancelled event ", ...t(ctx)];
    case A.ThreadCreate:
      return ["started thread ", ...t(ctx)];
    case A.ThreadUpdate:
      return threadUpdate(ctx);
    case A.ThreadDelete:
      return ["deleted thread ", ...t(ctx)];
    case A.OnboardingPromptCreate:
      return ["added the onboarding question ", ...t(ctx)];
    case A.OnboardingPromptUpdate:
      return ["changed the onboarding question ", ...t(ctx)];
    case A.OnboardingPromptDelete:
      return ["removed the onboarding question ", ...t(ctx)];
    case A.OnboardingCreate:
      return ["set up onboarding"];
    case A.OnboardingUpdate:
      return onboardingUpdate(ctx);
    case A.VoiceChannelStatusCreate:
      return ["set the status of ", ...t(ctx), ` to ${quoted(options.status ?? "")}`];
    case A.VoiceChannelStatusDelete:
      return ["cleared the status of ", ...t(ctx)];
    case A.AutoModerationBlockMessage:
    case A.AutoModerationFlagToChannel:
    case A.AutoModerationUserCommunicationDisabled:
    case A.AutoModerationQuarantineUser:
      return [`${actionInfo(ctx.entry.action_type).label.replace(/^AutoMod /, "")}`, ...(ctx.target ? [" — ", ...t(ctx)] : [])];
    default: {
      // Actions this platform records elsewhere (emoji, stickers, stage, sounds, AutoMod rules):
      // the label's words, with the name the entry recorded.
      const label = actionInfo(ctx.entry.action_type).label;
      return [`${label.charAt(0).toLowerCase()}${label.slice(1)}${quotedName}`, ...(ctx.target ? [" ", ...t(ctx)] : [])];
    }
  }
}

/** Who did it: their name, or the platform for changes no one made (a joining bot's role, an operator). */
function actorRef(entry: AuditLogEntryObject, lookup: Lookup): Part {
  // Not linked: on every row, a link to the members list would only be noise.
  return entry.user_id ? { ref: { ...refTo(lookup, "user", entry.user_id), href: null } } : "Guildhall";
}

function optionDetails(entry: AuditLogEntryObject, lookup: Lookup): DescribedEntry["details"] {
  const options = entry.options ?? {};
  const details: DescribedEntry["details"] = [];
  if (options.channel_id) details.push({ field: "Channel", parts: [{ ref: refTo(lookup, "channel", options.channel_id) }] });
  if (options.count) details.push({ field: "Count", parts: [options.count] });
  if (options.members_removed) details.push({ field: "Members removed", parts: [options.members_removed] });
  if (options.delete_member_days) details.push({ field: "Inactive for", parts: [plural(Number(options.delete_member_days), "day")] });
  if (options.id) {
    const kind: RefKind = options.type === "1" ? "user" : "role";
    details.push({
      field: "Override for",
      parts: [{ ref: refTo(lookup, kind, options.id, { ...(options.role_name && { fallbackName: options.role_name }) }) }],
    });
  }
  if (options.status) details.push({ field: "Status", parts: [quoted(options.status)] });
  return details;
}

export function describeEntry(entry: AuditLogEntryObject, lookup: Lookup): DescribedEntry {
  const info = actionInfo(entry.action_type);
  const target = targetRef(entry, lookup, info.target);
  const changeCtx: ChangeContext = { lookup, subject: info.subject, phase: info.phase, entryId: entry.id };
  // An overwrite's id and type are said in the sentence and the details.
  const shown = (entry.changes ?? []).filter((c) => info.subject !== "overwrite" || (c.key !== "id" && c.key !== "type"));
  const lines = shown.map((change) => describeChange(change, changeCtx));
  const ctx: Ctx = { entry, lookup, target, lines, change: (key) => entry.changes?.find((c) => c.key === key) };
  const timeout = entry.action_type === A.MemberUpdate ? ctx.change("communication_disabled_until") : undefined;
  const label = timeout ? (timeout.new_value ? "Member timed out" : "Timeout removed") : info.label;
  const tone = timeout?.new_value ? "orange" : info.tone;
  return { label, tone, sentence: [actorRef(entry, lookup), " ", ...sentenceOf(ctx)], target, changes: lines, details: optionDetails(entry, lookup) };
}
