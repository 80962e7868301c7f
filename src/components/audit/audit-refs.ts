// The things an audit entry names, as the page shows them: a name (or what is left of one
// when the thing is gone) and a link to where it lives in the dashboard while it exists.
import { ChannelType } from "discord-api-types/v10";
import type { AuditName, AuditNames } from "~/server/audit/audit-dashboard.service.ts";

export type RefKind = "user" | "role" | "channel" | "webhook" | "integration" | "invite" | "prompt" | "event" | "guild";

/** A named thing; `deleted` when it no longer exists (its text then says so). */
export type Ref = { kind: RefKind; id: string; text: string; deleted: boolean; href: string | null };

/** A piece of a sentence: words, a named thing, or a colour shown as a swatch. */
export type Part = string | { ref: Ref } | { color: number };

/** What the server resolved for a page: current names by id (invites by code) and the last recorded names of things gone. */
export type Lookup = { guildId: string; names: AuditNames; lastKnown: Readonly<Record<string, string>> };

/**
 * How a ref reads when its thing is gone: "deleted role Helpers" (`prefix`), just "Helpers"
 * in the entry that deleted it (`plain`), or "Helpers (since deleted)" in the entry that made it.
 */
export type GoneStyle = "prefix" | "plain" | "since";

const NOUNS: Record<RefKind, string> = {
  user: "user",
  role: "role",
  channel: "channel",
  webhook: "webhook",
  integration: "integration",
  invite: "invite",
  prompt: "onboarding question",
  event: "event",
  guild: "guild",
};

const UNPREFIXED_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildCategory, ChannelType.GuildVoice, ChannelType.GuildStageVoice];

/** "#general" for channels people write in; categories and voice channels by their bare name. */
function channelText(name: string, type: number | undefined): string {
  return type !== undefined && UNPREFIXED_CHANNEL_TYPES.includes(type) ? name : `#${name}`;
}

function named<K extends AuditName["kind"]>(lookup: Lookup, key: string, kind: K): Extract<AuditName, { kind: K }> | undefined {
  const found = lookup.names[key];
  return found?.kind === kind ? (found as Extract<AuditName, { kind: K }>) : undefined;
}

function hrefOf(lookup: Lookup, found: AuditName, id: string): string | null {
  const base = `/guilds/${lookup.guildId}`;
  switch (found.kind) {
    case "user":
      return found.member ? `${base}/members` : found.banned ? `${base}/bans` : null;
    case "role":
      return `${base}/roles`;
    case "channel":
      return found.type === ChannelType.GuildCategory ? `${base}/channels` : `${base}/channels/${id}/messages`;
    case "webhook":
      return found.channelId ? `${base}/channels/${found.channelId}/webhooks` : null;
    case "integration":
      return `${base}/integrations`;
    case "invite":
      return `${base}/invites`;
    case "prompt":
      return `${base}/onboarding`;
    case "guild":
      return base;
    case "event":
      return null;
  }
}

function textOf(found: AuditName, id: string): string {
  switch (found.kind) {
    case "channel":
      return channelText(found.name, found.type);
    case "invite":
      return id;
    default:
      return found.name;
  }
}

/**
 * The ref for `id` of `kind`. `fallbackName` is the name the entry itself recorded, used when
 * the thing is gone and the log holds no later name (for a channel, with its type).
 */
export function refTo(lookup: Lookup, kind: RefKind, id: string, options: { fallbackName?: string; channelType?: number; gone?: GoneStyle } = {}): Ref {
  if (kind === "role" && id === lookup.guildId) return { kind, id, text: "@everyone", deleted: false, href: `/guilds/${lookup.guildId}/roles` };
  const found = named(lookup, id, kind);
  if (found) return { kind, id, text: textOf(found, id), deleted: false, href: hrefOf(lookup, found, id) };
  const last = (kind === "invite" ? id : (options.fallbackName ?? lookup.lastKnown[id])) || undefined;
  const name = last === undefined ? undefined : kind === "channel" ? channelText(last, options.channelType) : last;
  const gone = options.gone ?? "prefix";
  const text =
    name === undefined
      ? `a deleted ${NOUNS[kind]}`
      : gone === "plain"
        ? name
        : gone === "since"
          ? `${name} (since deleted)`
          : kind === "user"
            ? name
            : `deleted ${NOUNS[kind]} ${name}`;
  return { kind, id, text, deleted: true, href: null };
}

/** The kind of thing an id inside an entry is, when the entry does not say: whatever the server found it to be. */
export function kindOf(lookup: Lookup, id: string): RefKind | undefined {
  if (id === lookup.guildId) return "guild";
  return lookup.names[id]?.kind;
}

/** The plain text of parts, for tests, titles and copying. */
export function partsText(parts: readonly Part[]): string {
  return parts.map((part) => (typeof part === "string" ? part : "ref" in part ? part.ref.text : `#${part.color.toString(16).padStart(6, "0")}`)).join("");
}
