import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/root.ts";

export type ChannelWebhooksView = inferRouterOutputs<AppRouter>["webhook"]["channel"];
export type DashboardWebhook = ChannelWebhooksView["webhooks"][number];

/** Where a channel's webhooks are managed. */
export function channelWebhooksPath(guildId: string, channelId: string): string {
  return `/guilds/${guildId}/channels/${channelId}/webhooks`;
}
