import { ChannelType } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { modifyWidgetSettings } from "~/server/guild-config/widget.service.ts";

/** The demo guild's widget, on and inviting to #general, once (a changed one is left as it is). */
export async function seedWidget(ctx: ServiceContext, guildId: string): Promise<string[]> {
  const guild = await ctx.db.guild.findUniqueOrThrow({ where: { id: guildId }, select: { widgetEnabled: true, widgetChannelId: true } });
  if (guild.widgetEnabled || guild.widgetChannelId) return [];
  const general = await ctx.db.channel.findFirstOrThrow({ where: { guildId, type: ChannelType.GuildText, name: "general" }, select: { id: true } });
  await modifyWidgetSettings(ctx, { guildId, body: { enabled: true, channel_id: general.id } });
  return ["widget"];
}
