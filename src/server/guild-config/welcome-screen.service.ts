import { AuditLogEvent, ChannelType, GatewayDispatchEvents, GuildFeature } from "discord-api-types/v10";
import { enforce } from "~/server/permissions/denial.ts";
import { manageGuildDenial, welcomeScreenReadDenial } from "~/server/guilds/guild-section-rules.ts";
import type { Guild, Prisma } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { parseFeatures, toGuildObject } from "~/server/guilds/guild.dto.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import type { TWelcomeChannel, TWelcomeScreenBody } from "./guild-config.schema.ts";

export type WelcomeScreen = {
  description: string | null;
  welcome_channels: { channel_id: string; description: string; emoji_id: string | null; emoji_name: string | null }[];
};

const GATE = GuildFeature.WelcomeScreenEnabled;

/** The welcome screen object from the guild row. */
function toWelcomeScreen(guild: Pick<Guild, "welcomeDescription" | "welcomeChannels">): WelcomeScreen {
  return { description: guild.welcomeDescription, welcome_channels: JSON.parse(guild.welcomeChannels) as WelcomeScreen["welcome_channels"] };
}

/** The welcome screen when the guild shows it (what an invite's guild object carries), else null. */
export function shownWelcomeScreen(guild: Pick<Guild, "features" | "welcomeDescription" | "welcomeChannels">): WelcomeScreen | null {
  return parseFeatures(guild.features).includes(GATE) ? toWelcomeScreen(guild) : null;
}

/** GET /guilds/{guild.id}/welcome-screen: members see it when enabled; otherwise MANAGE_GUILD. */
export async function getWelcomeScreen(ctx: ServiceContext, input: { guildId: string }): Promise<WelcomeScreen> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(welcomeScreenReadDenial(access));
  return toWelcomeScreen(access.guild);
}

const WELCOME_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum, ChannelType.GuildMedia];

/**
 * PATCH /guilds/{guild.id}/welcome-screen: MANAGE_GUILD; up to 5 channels of this guild,
 * each with a description and an optional emoji. `enabled` switches WELCOME_SCREEN_ENABLED
 * (Guild Update); audit GUILD_UPDATE.
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
      return { channel_id: entry.channel_id, description: entry.description, emoji_id: entry.emoji_id ?? null, emoji_name: entry.emoji_name ?? null };
    });
    data.welcomeChannels = JSON.stringify(entries);
  }
  const features = parseFeatures(access.guild.features);
  if (body.enabled !== undefined && body.enabled !== null && features.includes(GATE) !== body.enabled) {
    data.features = JSON.stringify(body.enabled ? [...features, GATE] : features.filter((feature) => feature !== GATE));
  }
  if (Object.keys(data).length === 0) return toWelcomeScreen(access.guild);
  return runChange(ctx, async ({ tx, emit, audit }) => {
    const updated = await tx.guild.update({ where: { id: access.guild.id }, data });
    await audit({
      guildId: updated.id,
      actionType: AuditLogEvent.GuildUpdate,
      targetId: updated.id,
      changes: [{ key: "welcome_screen", new_value: toWelcomeScreen(updated) }],
    });
    await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, access.roles, access.state.expressions));
    return toWelcomeScreen(updated);
  });
}
