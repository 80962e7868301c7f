import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P, type PresenceUpdateReceiveStatus } from "discord-api-types/v10";
import { enforce } from "~/server/permissions/denial.ts";
import { manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import { publicUrl } from "~/env.ts";
import type { Guild, Prisma } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { toGuildObject } from "~/server/guilds/guild.dto.ts";
import { readOwnedImage } from "~/server/images/image.service.ts";
import { inviteUrl } from "~/server/invites/invite.dto.ts";
import { provideWidgetInvite } from "~/server/invites/invite.service.ts";
import { loadGuildAccess, loadGuildState, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { computePermissions, hasPermission, roleHolder } from "~/server/permissions/permissions.ts";
import { compareSnowflakes } from "~/server/snowflake/snowflake.ts";
import type { GuildState } from "~/server/state/guild-state.ts";
import { preserialize } from "~/server/state/wire-json.ts";
import { onlineMemberStatuses } from "~/server/presences/presence.service.ts";
import { renderWidgetImage } from "./widget-image.ts";
import { WIDGET_MEMBERS_MAX, type TWidgetSettingsBody, type WidgetStyle } from "./widget.schema.ts";

export type WidgetSettings = { enabled: boolean; channel_id: string | null };

type WidgetChannel = { id: string; name: string; position: number };
type WidgetMember = {
  id: string;
  username: string;
  discriminator: "0000";
  avatar: null;
  status: PresenceUpdateReceiveStatus;
  avatar_url: string;
  channel_id?: string;
  deaf?: boolean;
  mute?: boolean;
  self_deaf?: boolean;
  self_mute?: boolean;
  suppress?: boolean;
};
export type WidgetObject = {
  id: string;
  name: string;
  instant_invite: string | null;
  channels: WidgetChannel[];
  members: WidgetMember[];
  presence_count: number;
};

/** Presences change without touching the guild's state (they would drop it), so widget answers stand this long. */
const WIDGET_TTL_MS = 30_000;
const VOICE_TYPES: readonly number[] = [ChannelType.GuildVoice, ChannelType.GuildStageVoice];
const WIDGET_AUDIT_KEYS = ["widget_enabled", "widget_channel_id"];

function toWidgetSettings(guild: Pick<Guild, "widgetEnabled" | "widgetChannelId">): WidgetSettings {
  return { enabled: guild.widgetEnabled, channel_id: guild.widgetChannelId };
}

/** GET /guilds/{guild.id}/widget: MANAGE_GUILD. */
export async function getWidgetSettings(ctx: ServiceContext, input: { guildId: string }): Promise<WidgetSettings> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  return toWidgetSettings(access.guild);
}

/**
 * PATCH /guilds/{guild.id}/widget: MANAGE_GUILD; the invite channel is one of this guild's
 * channels that can have invites (no category), null for none. A change fires Guild Update
 * and is audited as GUILD_UPDATE.
 */
export async function modifyWidgetSettings(ctx: ServiceContext, input: { guildId: string; body: TWidgetSettingsBody }): Promise<WidgetSettings> {
  const { body } = input;
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(manageGuildDenial(access));
  const before = access.guild;
  const data: Prisma.GuildUpdateInput = {};
  if (body.enabled !== undefined && body.enabled !== null && body.enabled !== before.widgetEnabled) data.widgetEnabled = body.enabled;
  if (body.channel_id !== undefined && body.channel_id !== before.widgetChannelId) {
    if (body.channel_id !== null) {
      // The guild's channels without threads: threads and categories cannot be invited to.
      const channel = (await access.state.channels()).byId.get(body.channel_id);
      if (!channel || channel.type === ChannelType.GuildCategory) {
        throw invalidField(["channel_id"], "CHANNEL_INVALID", "A channel of this guild that can have invites.");
      }
    }
    data.widgetChannelId = body.channel_id;
  }
  if (Object.keys(data).length === 0) return toWidgetSettings(before);
  return runChange(ctx, async ({ tx, emit, audit }) => {
    const updated = await tx.guild.update({ where: { id: before.id }, data });
    const guildObject = toGuildObject(updated, access.roles, access.state.expressions);
    await audit({
      guildId: updated.id,
      actionType: AuditLogEvent.GuildUpdate,
      targetId: updated.id,
      changes: diffChanges(toGuildObject(before, access.roles, access.state.expressions), guildObject, WIDGET_AUDIT_KEYS),
    });
    await emit(GatewayDispatchEvents.GuildUpdate, guildObject);
    return toWidgetSettings(updated);
  });
}

/** The guild's state when its widget is on; 10004 for an unknown guild, 50004 Widget Disabled otherwise. */
async function loadWidgetGuild(db: Db, guildId: string): Promise<GuildState> {
  const state = await loadGuildState(db, guildId);
  if (!state.guild.widgetEnabled) throw new ApiError("WIDGET_DISABLED");
  return state;
}

/** Members others see online (presences), counted once for the widget's answer and image alike. */
function countPresences(db: Db, state: GuildState): Promise<number> {
  return state.answer("widget presences", async () => (await onlineMemberStatuses(db, state.guild.id)).size, WIDGET_TTL_MS);
}

/** Voice and stage channels that @everyone may view, overwrites included, by position. */
async function publicVoiceChannels(state: GuildState): Promise<WidgetChannel[]> {
  const { guild } = state;
  const everyone = state.roles.find((role) => role.id === guild.id)?.permissions ?? 0n;
  const channels = (await state.channels()).rows.filter((channel) => {
    if (!VOICE_TYPES.includes(channel.type)) return false;
    const permissions = computePermissions({
      guildId: guild.id,
      holder: roleHolder(everyone),
      channel: { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) },
    });
    return hasPermission(permissions, P.ViewChannel);
  });
  return channels
    .toSorted((a, b) => a.position - b.position || compareSnowflakes(a.id, b.id))
    .map((channel) => ({ id: channel.id, name: channel.name, position: channel.position }));
}

/** The widget's invite link, or null without an invite channel (or when the guild has no room for another invite). */
async function instantInvite(db: Db, state: GuildState): Promise<string | null> {
  const channelId = state.guild.widgetChannelId;
  const channel = channelId ? (await state.channels()).byId.get(channelId) : undefined;
  if (!channel || channel.type === ChannelType.GuildCategory) return null;
  try {
    return inviteUrl(await provideWidgetInvite(db, { guildId: state.guild.id, channelId: channel.id }));
  } catch (error) {
    if (error instanceof ApiError && error.key === "MAX_INVITES") return null;
    throw error;
  }
}

/** Online members with their status, anonymised as the platform does (sequential ids, no avatars), with their voice state in listed channels. */
async function widgetMembers(db: Db, guildId: string, channelIds: ReadonlySet<string>): Promise<WidgetMember[]> {
  const statuses = await onlineMemberStatuses(db, guildId);
  const members = await db.member.findMany({
    where: { guildId, userId: { in: [...statuses.keys()] } },
    include: { user: true },
    orderBy: [{ user: { username: "asc" } }, { userId: "asc" }],
    take: WIDGET_MEMBERS_MAX,
  });
  const voiceStates = await db.voiceState.findMany({ where: { guildId, userId: { in: members.map((member) => member.userId) } } });
  const voiceOf = new Map(voiceStates.map((voice) => [voice.userId, voice]));
  const avatarUrl = publicUrl("/widget-avatar.svg");
  return members.map((member, index) => {
    const voice = voiceOf.get(member.userId);
    return {
      id: String(index),
      username: member.nick ?? member.user.globalName ?? member.user.username,
      discriminator: "0000",
      avatar: null,
      status: statuses.get(member.userId)!,
      avatar_url: avatarUrl,
      ...(voice &&
        channelIds.has(voice.channelId) && {
          channel_id: voice.channelId,
          deaf: member.deaf,
          mute: member.mute,
          self_deaf: voice.selfDeaf,
          self_mute: voice.selfMute,
          // Stage speakers are not tracked yet: nobody is held back.
          suppress: false,
        }),
    };
  });
}

/**
 * GET /guilds/{guild.id}/widget.json: no authentication; 50004 while the widget is off. The
 * first read after an invite channel is set makes the widget's invite (Invite Create).
 */
export async function getWidget(db: Db, input: { guildId: string }): Promise<WidgetObject> {
  const state = await loadWidgetGuild(db, input.guildId);
  return state.answer(
    "widget",
    async () => {
      const channels = await publicVoiceChannels(state);
      return preserialize({
        id: state.guild.id,
        name: state.guild.name,
        instant_invite: await instantInvite(db, state),
        channels,
        members: await widgetMembers(db, state.guild.id, new Set(channels.map((channel) => channel.id))),
        presence_count: await countPresences(db, state),
      });
    },
    WIDGET_TTL_MS,
  );
}

/** The guild's icon as a data URI the renderer can draw (PNG, JPEG or GIF); null draws initials. */
async function iconDataUri(db: Db, guild: Guild): Promise<string | null> {
  if (!guild.icon) return null;
  const image = await readOwnedImage(db, "icons", guild.id, guild.icon);
  if (!image || image.contentType === "image/webp") return null;
  return `data:${image.contentType};base64,${Buffer.from(image.data).toString("base64")}`;
}

/**
 * GET /guilds/{guild.id}/widget.png: no authentication; 50004 while the widget is off. Kept
 * with the guild's state per style and online count, so it is drawn again only when the
 * guild changes or the count moves.
 */
export async function getWidgetImage(db: Db, input: { guildId: string; style: WidgetStyle }): Promise<Uint8Array> {
  const state = await loadWidgetGuild(db, input.guildId);
  const presenceCount = await countPresences(db, state);
  return state.answer(`widget.png ${input.style} ${presenceCount}`, async () =>
    renderWidgetImage(input.style, { name: state.guild.name, icon: await iconDataUri(db, state.guild), presenceCount }),
  );
}
