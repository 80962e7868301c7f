import { AllowedMentionsTypes } from "discord-api-types/v10";
import type { Tx } from "~/server/db/client.ts";
import type { TAllowedMentions } from "./message.schema.ts";

/** What a message's content names: user and role ids in order of appearance, and @everyone/@here. */
export type ParsedMentions = { userIds: string[]; roleIds: string[]; everyone: boolean };

const USER_MENTION = /<@!?(\d{1,20})>/g;
const ROLE_MENTION = /<@&(\d{1,20})>/g;
const EVERYONE_MENTION = /(?<!\w)@(?:everyone|here)\b/;

/** The mentions written in a message's content (pure). */
export function parseMentions(content: string): ParsedMentions {
  const unique = (regex: RegExp) => [...new Set([...content.matchAll(regex)].map((match) => match[1]!))];
  return { userIds: unique(USER_MENTION), roleIds: unique(ROLE_MENTION), everyone: EVERYONE_MENTION.test(content) };
}

/**
 * Which written mentions notify, by `allowed_mentions` (pure). Without it the platform's
 * default applies: every kind parsed from the content, and the replied-to author.
 */
export function allowMentions(parsed: ParsedMentions, allowed: TAllowedMentions | null | undefined): ParsedMentions & { repliedUser: boolean } {
  if (!allowed) return { ...parsed, repliedUser: true };
  const parse = new Set(allowed.parse ?? []);
  const listed = (ids: string[], kind: AllowedMentionsTypes.User | AllowedMentionsTypes.Role, list: readonly string[] | null | undefined) =>
    parse.has(kind) ? ids : ids.filter((id) => list?.includes(id));
  return {
    userIds: listed(parsed.userIds, AllowedMentionsTypes.User, allowed.users),
    roleIds: listed(parsed.roleIds, AllowedMentionsTypes.Role, allowed.roles),
    everyone: parsed.everyone && parse.has(AllowedMentionsTypes.Everyone),
    repliedUser: allowed.replied_user ?? false,
  };
}

export type MessageMentions = { userIds: string[]; roleIds: string[]; everyone: boolean };

/**
 * A message's `mentions`, `mention_roles` and `mention_everyone`: the content's mentions that
 * `allowed_mentions` lets through, users only when they are members of the guild, roles only
 * when they are the guild's and mentionable (or the author may mention everyone), @everyone
 * only for authors who may. `repliedUserId`, the author of a replied-to message, joins the
 * users when allowed.
 */
export async function resolveMentions(
  tx: Tx,
  input: {
    guildId: string | null;
    content: string;
    allowedMentions: TAllowedMentions | null | undefined;
    /** MENTION_EVERYONE in the channel (webhooks always may). */
    canMentionEveryone: boolean;
    repliedUserId?: string | null;
  },
): Promise<MessageMentions> {
  const allowed = allowMentions(parseMentions(input.content), input.allowedMentions);
  const userIds = [...allowed.userIds];
  if (input.repliedUserId && allowed.repliedUser && !userIds.includes(input.repliedUserId)) userIds.push(input.repliedUserId);
  if (!input.guildId) return { userIds: [], roleIds: [], everyone: false };

  const [members, roles] = await Promise.all([
    userIds.length > 0 ? tx.member.findMany({ where: { guildId: input.guildId, userId: { in: userIds } }, select: { userId: true } }) : [],
    allowed.roleIds.length > 0
      ? tx.role.findMany({ where: { guildId: input.guildId, id: { in: allowed.roleIds } }, select: { id: true, mentionable: true } })
      : [],
  ]);
  const memberIds = new Set(members.map((m) => m.userId));
  const roleById = new Map(roles.map((r) => [r.id, r]));
  return {
    userIds: userIds.filter((id) => memberIds.has(id)),
    // @everyone's own id is not a role mention.
    roleIds: allowed.roleIds.filter((id) => {
      const role = roleById.get(id);
      return id !== input.guildId && role !== undefined && (role.mentionable || input.canMentionEveryone);
    }),
    everyone: allowed.everyone && input.canMentionEveryone,
  };
}
