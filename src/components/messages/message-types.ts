import type { inferRouterOutputs } from "@trpc/server";
import { ChannelType } from "discord-api-types/v10";
import type { MentionLists } from "~/server/messages/message-dashboard.service.ts";
import type { TEmbed } from "~/server/messages/message.schema.ts";
import type { AppRouter } from "~/server/trpc/root.ts";

export type ChannelMessagesPage = inferRouterOutputs<AppRouter>["message"]["list"];
/** A message of a channel's page, with why the user may not edit or delete it. */
export type ChannelMessage = ChannelMessagesPage["messages"][number];
/** A message as every view draws it (a channel's page, search results, a webhook's test). */
export type DashboardMessage = Omit<ChannelMessage, "denials">;
type DashboardMessageSearch = inferRouterOutputs<AppRouter>["message"]["searchPage"];
export type DashboardSearchHit = Extract<DashboardMessageSearch, { state: "results" }>["hits"][number];
export type DashboardAttachment = DashboardMessage["attachments"][number];
/** A stored embed: what was sent, with the platform's `type`. */
export type DashboardEmbed = TEmbed & { type?: string };

/** What mentions in a message's content name. */
export type MentionNames = {
  users: ReadonlyMap<string, string>;
  roles: ReadonlyMap<string, { name: string; color: number }>;
  channels: ReadonlyMap<string, string>;
};

/** The names a page's (or a test message's) mention lists give, as the renderer looks them up. */
export function mentionNamesOf(lists: MentionLists): MentionNames {
  return {
    users: new Map(lists.users.map((user) => [user.id, user.name])),
    roles: new Map(lists.roles.map((role) => [role.id, role])),
    channels: new Map(lists.channels.map((channel) => [channel.id, channel.name])),
  };
}

/** Channels whose rows link to a Messages view. */
export const MESSAGE_VIEW_CHANNEL_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

/** Where a channel's (or thread's) messages are read. */
export function channelMessagesPath(guildId: string, channelId: string): string {
  return `/guilds/${guildId}/channels/${channelId}/messages`;
}

/** A 0xRRGGBB number as CSS, or null for 0 (the platform's "no colour"). */
export function cssColor(color: number | null | undefined): string | null {
  return color ? `#${color.toString(16).padStart(6, "0")}` : null;
}
