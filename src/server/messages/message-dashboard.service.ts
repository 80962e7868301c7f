import { ChannelType, MessageFlags, PermissionFlagsBits as P } from "discord-api-types/v10";
import { loadChannelAccess } from "~/server/channels/channel-read.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { channelPermissions, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { isThreadChannel, loadThreadAccess } from "~/server/threads/thread-access.ts";
import type { MessageObject } from "./message.dto.ts";
import { canReadMessages } from "./message-access.ts";
import {
  attachDenial,
  deleteDenial,
  editDenial,
  messageThreadDenial,
  pinDenial,
  reactDenial,
  replyDenial,
  sendDenial,
  type MessagePlace,
} from "./message-rules.ts";
import { listMessages } from "./message.service.ts";

export const DASHBOARD_PAGE_SIZE = 50;

/** Channels whose messages can start a thread (public, or an announcement thread). */
const STARTED_FROM_TYPES: number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement];

/** Threads a message can start; they take the starter message's id. Private threads have no starter. */
const STARTED_THREAD_TYPES = [ChannelType.PublicThread, ChannelType.AnnouncementThread];

// `thread` is the dashboard's own: only a thread the user can reach, by id and name.
export type DashboardMessage = Omit<MessageObject, "thread"> & {
  /** The signed-in user may delete it: their own, or anyone's with MANAGE_MESSAGES. */
  canDelete: boolean;
  /** In an announcement channel, not yet published: the user may crosspost it (SEND_MESSAGES; MANAGE_MESSAGES for another's). */
  canPublish: boolean;
  /** The avatar_url a webhook posted with (no avatar hash on the CDN to give for it). */
  avatarUrl: string | null;
  /** The thread this message started, when there is one the user can reach. */
  thread: { id: string; name: string } | null;
};

/** A message of the channel's page, with why the user may not edit or delete it (message-rules.ts); null where they may. */
type ChannelMessage = DashboardMessage & { denials: { edit: string | null; delete: string | null } };

export type ChannelMessagesPage = {
  /** `parentType`: a thread's parent's kind (null for channels); a forum's post has no channel messages to go back to. */
  channel: { id: string; name: string; type: number; guildId: string; parentId: string | null; parentType: number | null };
  /** Why the user cannot read the channel's history; null when they can. */
  blockedReason: string | null;
  canManageMessages: boolean;
  messages: ChannelMessage[];
  /**
   * Why the user may not act here (message-rules.ts), null where they may: `react` with an
   * emoji no one has used on the message yet, `joinReaction` with one already there.
   */
  denials: { send: string | null; attach: string | null; reply: string | null; react: string | null; joinReaction: string | null; pin: string | null };
  /** Whether threads start from this channel's messages, and why the user may not start one (null where they may); null where none can. */
  startThread: { denial: string | null } | null;
  /** The `before` of the next (older) page; null at the channel's first message. */
  nextCursor: string | null;
} & MentionLists;

/** What mentions in messages name: members (by nickname), the guild's roles, the channels the user can view. */
export type MentionLists = {
  users: { id: string; name: string }[];
  roles: { id: string; name: string; color: number }[];
  channels: { id: string; name: string }[];
};

async function channelOf(ctx: ServiceContext, channelId: string) {
  if (await isThreadChannel(ctx, channelId)) {
    const { access, thread, parent, permissions, membership } = await loadThreadAccess(ctx, channelId);
    return {
      access,
      channel: thread,
      permissions,
      readable: canReadMessages(permissions, { type: thread.type, joined: membership !== null }),
      parentType: parent.type,
      isThread: true,
    };
  }
  const { access, channel, permissions } = await loadChannelAccess(ctx, channelId);
  return { access, channel, permissions, readable: canReadMessages(permissions, channel), parentType: null, isThread: false };
}

const USER_MENTION = /<@!?(\d+)>/g;

/** Names for the users a page's texts mention, pinged or not: members of the guild only, by their nickname there. */
async function mentionedMembers(db: Db, guildId: string, messages: readonly MessageObject[]) {
  const texts = messages.flatMap((message) => [
    message.content,
    ...(message.embeds as { description?: string | null; fields?: { value: string }[] | null }[]).flatMap((embed) => [
      embed.description ?? "",
      ...(embed.fields ?? []).map((field) => field.value),
    ]),
  ]);
  const ids = new Set(texts.flatMap((text) => [...text.matchAll(USER_MENTION)].map((match) => match[1]!)));
  if (ids.size === 0) return [];
  const members = await db.member.findMany({ where: { guildId, userId: { in: [...ids] } }, include: { user: true } });
  return members.map((member) => ({ id: member.userId, name: member.nick ?? member.user.globalName ?? member.user.username }));
}

async function visibleChannels(access: GuildAccess): Promise<{ id: string; name: string }[]> {
  const { rows } = await access.state.channels();
  return rows
    .filter((row) => hasPermission(channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) }), P.ViewChannel))
    .map((row) => ({ id: row.id, name: row.name }));
}

/** The names the mentions of `messages` point at, as the dashboard shows them to the signed-in user. */
export async function mentionListsOf(ctx: ServiceContext, access: GuildAccess, messages: readonly MessageObject[]): Promise<MentionLists> {
  return {
    users: await mentionedMembers(ctx.db, access.guild.id, messages),
    roles: access.roles.map((role) => ({ id: role.id, name: role.name, color: role.color })),
    channels: await visibleChannels(access),
  };
}

/**
 * One page of a channel's messages for the dashboard, newest first, as the message service
 * answers them to the signed-in user (a user, not a bot: content is never hidden), with what
 * the user may do and what the page's mentions name.
 */
export async function loadChannelMessagesPage(
  ctx: ServiceContext,
  input: { channelId: string; cursor?: string | null; limit?: number },
): Promise<ChannelMessagesPage> {
  const { access, channel, permissions, readable, parentType, isThread } = await channelOf(ctx, input.channelId);
  const place: MessagePlace = { permissions, readable, standing: access, thread: isThread ? { row: channel } : null };
  const limit = input.limit ?? DASHBOARD_PAGE_SIZE;
  // One more than the page tells whether older messages remain.
  const listed = await listMessages(ctx, { channelId: channel.id, query: { limit: limit + 1, ...(input.cursor && { before: input.cursor }) } });
  const page = listed.slice(0, limit);
  const canManageMessages = hasPermission(permissions, P.ManageMessages);
  const canPublishIn = channel.type === ChannelType.GuildAnnouncement && hasPermission(permissions, P.SendMessages);
  const threads = await ctx.db.channel.findMany({
    where: { parentId: channel.id, type: { in: STARTED_THREAD_TYPES }, id: { in: page.map((message) => message.id) } },
    select: { id: true, name: true },
  });
  const threadOf = new Map(threads.map((thread) => [thread.id, thread]));
  const overrides = await ctx.db.message.findMany({
    where: { id: { in: page.filter((message) => message.webhook_id && !message.author.avatar).map((message) => message.id) }, authorAvatarUrl: { not: null } },
    select: { id: true, authorAvatarUrl: true },
  });
  const avatarUrlOf = new Map(overrides.map((row) => [row.id, row.authorAvatarUrl]));
  const denialsOf = (message: MessageObject) => {
    const denials = {
      edit: reasonOf(editDenial(ctx.actor.userId, message.author.id)),
      delete: reasonOf(deleteDenial(place, message.author.id === ctx.actor.userId)),
    };
    return { denials, canDelete: denials.delete === null };
  };
  return {
    channel: { id: channel.id, name: channel.name, type: channel.type, guildId: access.guild.id, parentId: channel.parentId, parentType },
    blockedReason: readable ? null : "Needs Read Message History in this channel",
    canManageMessages,
    denials: {
      send: reasonOf(sendDenial(place)),
      attach: reasonOf(attachDenial(place)),
      reply: reasonOf(replyDenial(place)),
      react: reasonOf(reactDenial(place, true)),
      joinReaction: reasonOf(reactDenial(place, false)),
      pin: reasonOf(pinDenial(place)),
    },
    startThread: STARTED_FROM_TYPES.includes(channel.type) ? { denial: reasonOf(messageThreadDenial(place)) } : null,
    messages: page.map((message) => ({
      ...message,
      ...denialsOf(message),
      canPublish: canPublishIn && (message.flags & MessageFlags.Crossposted) === 0 && (canManageMessages || message.author.id === ctx.actor.userId),
      avatarUrl: avatarUrlOf.get(message.id) ?? null,
      thread: threadOf.get(message.id) ?? null,
    })),
    nextCursor: listed.length > limit ? page.at(-1)!.id : null,
    ...(await mentionListsOf(ctx, access, page)),
  };
}
