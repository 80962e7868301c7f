import { ChannelType } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { modifyWelcomeScreen } from "~/server/guild-config/welcome-screen.service.ts";

const WELCOME = [
  { name: "rules", description: "Read the rules first", emoji: "📜" },
  { name: "general", description: "Say hello to everyone", emoji: "👋" },
  { name: "announcements", description: "Follow the guild's news", emoji: "📣" },
] as const;

/** The demo guild's welcome screen, enabled, once (an edited one is left as it is). */
export async function seedWelcomeScreen(ctx: ServiceContext, guildId: string): Promise<string[]> {
  const guild = await ctx.db.guild.findUniqueOrThrow({ where: { id: guildId }, select: { welcomeChannels: true } });
  if (guild.welcomeChannels !== "[]") return [];
  const channels = await ctx.db.channel.findMany({
    where: { guildId, type: { in: [ChannelType.GuildText, ChannelType.GuildAnnouncement] } },
    select: { id: true, name: true },
  });
  const welcomeChannels = WELCOME.flatMap((entry) => {
    const channel = channels.find((c) => c.name === entry.name);
    return channel ? [{ channel_id: channel.id, description: entry.description, emoji_name: entry.emoji }] : [];
  });
  await modifyWelcomeScreen(ctx, {
    guildId,
    body: { enabled: true, description: "A guild to try Guildhall with. Start here:", welcome_channels: welcomeChannels },
  });
  return ["welcome screen"];
}
