import { AuditLogEvent, ChannelType, GatewayDispatchEvents, GuildFeature } from "discord-api-types/v10";
import { enforce } from "~/server/permissions/denial.ts";
import { manageGuildDenial, welcomeScreenReadDenial } from "~/server/guilds/guild-section-rules.ts";
import type { Emoji, Guild, Prisma } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { parseFeatures, toGuildObject } from "~/server/guilds/guild.dto.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import type { TWelcomeChannel, TWelcomeScreenBody } from "./guild-config.schema.ts";
import { currentEmoji, settingEmoji } from "./setting-emoji.ts";

type WelcomeChannel = { channel_id: string; description: string; emoji_id: string | null; emoji_name: string | null };

export type WelcomeScreen = { description: string | null; welcome_channels: WelcomeChannel[] };

const GATE = GuildFeature.WelcomeScreenEnabled;

/** The welcome screen object from the guild row, each custom emoji as `guildEmojis` has it now (none once deleted). */
function toWelcomeScreen(guild: Pick<Guild, "welcomeDescription" | "welcomeChannels">, guildEmojis: readonly Emoji[]): WelcomeScreen {
  const channels = (JSON.parse(guild.welcomeChannels) as WelcomeChannel[]).map((channel) => {
    if (!channel.emoji_id) return channel;
    const emoji = currentEmoji(guildEmojis, channel.emoji_id);
    return { ...channel, emoji_id: emoji?.id ?? null, emoji_name: emoji?.name ?? null };
  });
  return { description: guild.welcomeDescription, welcome_channels: channels };
}

/** The welcome screen when the guild shows it (what an invite's guild object carries), else null. */
export function shownWelcomeScreen(
  guild: Pick<Guild, "features" | "welcomeDescription" | "welcomeChannels">,
  guildEmojis: readonly Emoji[],
): WelcomeScreen | null {
  return parseFeatures(guild.features).includes(GATE) ? toWelcomeScreen(guild, guildEmojis) : null;
}

/** GET /guilds/{guild.id}/welcome-screen: members see it when enabled; otherwise MANAGE_GUILD. */
export async function getWelcomeScreen(ctx: ServiceContext, input: { guildId: string }): Promise<WelcomeScreen> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(welcomeScreenReadDenial(access));
  return toWelcomeScreen(access.guild, access.state.expressions.emojis);
}

/** A welcome channel's emoji: a custom one as the guild stores it (50035 for an id of none of its emojis), else a unicode one by name. */
function welcomeEmoji(access: GuildAccess, entry: TWelcomeChannel, index: number): Pick<WelcomeChannel, "emoji_id" | "emoji_name"> {
  if (!entry.emoji_id) return { emoji_id: null, emoji_name: entry.emoji_name ?? null };
  const custom = settingEmoji(access.state.expressions.emojis, entry.emoji_id);
  if ("error" in custom) throw invalidField(["welcome_channels", index, "emoji_id"], custom.error.code, custom.error.message);
  return { emoji_id: custom.emoji.id, emoji_name: custom.emoji.name };
}

const WELCOME_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum, ChannelType.GuildMedia];

/**
 * PATCH /guilds/{guild.id}/welcome-screen: MANAGE_GUILD; up to 5 channels of this guild,
 * each with a description and an optional emoji (unicode, or one of the guild's). `enabled`
 * switches WELCOME_SCREEN_ENABLED (Guild Update); audit GUILD_UPDATE.
 */
export async function modifyWelcomeScreen(ctx: ServiceContext, input: { guildId: string; body: TWelcomeScreenBody }): Promise<WelcomeScreen> {
  const { body } = input;
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  const data: Prisma.GuildUpdateInput = {};
  if (body.description !== undefined) data.welcomeDescription = body.description || null;
  if (body.welcome_channels !== undefined) {
    const channels = await access.state.channels();
    const seen = new Set<string>();
    const entries = (body.welcome_channels ?? []).map((entry: TWelcomeChannel, index) => {
      const channel = channels.byId.get(entry.channel_id);
      if (!channel || !WELCOME_CHANNEL_TYPES.includes(channel.type)) {
        throw invalidField(["welcome_channels", index, "channel_id"], "CHANNEL_INVALID", "A text channel of this guild.");
      }
      if (seen.has(entry.channel_id)) throw invalidField(["welcome_channels", index, "channel_id"], "BASE_TYPE_DUPLICATE", "Each channel once.");
      seen.add(entry.channel_id);
      return { channel_id: entry.channel_id, description: entry.description, ...welcomeEmoji(access, entry, index) };
    });
    data.welcomeChannels = JSON.stringify(entries);
  }
  const features = parseFeatures(access.guild.features);
  if (body.enabled !== undefined && body.enabled !== null && features.includes(GATE) !== body.enabled) {
    data.features = JSON.stringify(body.enabled ? [...features, GATE] : features.filter((feature) => feature !== GATE));
  }
  const emojis = access.state.expressions.emojis;
  if (Object.keys(data).length === 0) return toWelcomeScreen(access.guild, emojis);
  return runChange(ctx, async ({ tx, emit, audit }) => {
    const updated = await tx.guild.update({ where: { id: access.guild.id }, data });
    await audit({
      guildId: updated.id,
      actionType: AuditLogEvent.GuildUpdate,
      targetId: updated.id,
      changes: [{ key: "welcome_screen", new_value: toWelcomeScreen(updated, emojis) }],
    });
    await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, access.roles, access.state.expressions));
    return toWelcomeScreen(updated, emojis);
  });
}
