// The GUILD_CREATE a bot session receives for each of its guilds: the guild object with what
// client libraries fill their caches from. A fixed number of queries per guild, whatever
// its size (no query per member or channel).
import { toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import type { Db } from "~/server/db/client.ts";
import { GatewayIntentBits } from "discord-api-types/v10";
import { MEMBER_INCLUDE, toMemberObject } from "~/server/members/member.dto.ts";
import { toVoiceStateObject } from "~/server/members/voice.service.ts";
import { toScheduledEventObject } from "~/server/scheduled-events/scheduled-event.service.ts";
import { shownGuildPresences } from "~/server/presences/presence.service.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { isPastAutoArchive } from "~/server/threads/thread-auto-archive.ts";
import { IS_A_THREAD, THREAD_INCLUDE, toThreadObject } from "~/server/threads/thread.dto.ts";
import { obfuscateChannel } from "./channel-obfuscation.ts";
import { botAccess, canViewChannel, canViewThread } from "./channel-view.ts";
import type { GatewaySessionView } from "./gateway-types.ts";

/**
 * The GUILD_CREATE payload for a guild the session's bot is in; null when it is not (any
 * more). Members: every member for a session with GUILD_PRESENCES in a guild up to
 * `large_threshold`; otherwise the bot and the members in voice, as the platform sends.
 * Presences (with GUILD_PRESENCES): the members seen online, through the privacy rule. Stage
 * instances and soundboard sounds do not exist here yet: their lists are empty.
 */
export async function readGuildCreate(
  db: Db,
  session: Pick<GatewaySessionView, "botUserId" | "largeThreshold" | "intents" | "channelObfuscation">,
  guildId: string,
) {
  const { botUserId } = session;
  const state = await stateCache(db).guild(guildId, botUserId);
  const access = state && (await botAccess(state, botUserId));
  if (!state || !access) return null;
  const [channels, memberCount, voiceStates, threads, scheduledEvents] = await Promise.all([
    state.channels(),
    db.member.count({ where: { guildId } }),
    db.voiceState.findMany({ where: { guildId }, orderBy: { userId: "asc" } }),
    db.channel.findMany({
      where: { guildId, type: IS_A_THREAD, threadArchived: false },
      include: { ...THREAD_INCLUDE, threadMembers: { where: { userId: botUserId } } },
      orderBy: { id: "asc" },
    }),
    db.scheduledEvent.findMany({ where: { guildId }, orderBy: { scheduledStartTime: "asc" } }),
  ]);
  const now = new Date();
  const large = memberCount > session.largeThreshold;
  // As on the platform: every member only with GUILD_PRESENCES in a guild that is not large;
  // otherwise the bot itself and the members in voice.
  const everyMember = !large && (session.intents & GatewayIntentBits.GuildPresences) !== 0;
  const creatorIds = [...new Set(scheduledEvents.flatMap((event) => (event.creatorId ? [event.creatorId] : [])))];
  const [members, creators] = await Promise.all([
    db.member.findMany({
      where: !everyMember ? { guildId, userId: { in: [botUserId, ...voiceStates.map((voice) => voice.userId)] } } : { guildId },
      include: MEMBER_INCLUDE,
      orderBy: { userId: "asc" },
    }),
    creatorIds.length > 0 ? db.user.findMany({ where: { id: { in: creatorIds } } }) : [],
  ]);
  const membersById = new Map(members.map((member) => [member.userId, member]));
  const creatorsById = new Map(creators.map((user) => [user.id, user]));
  const bot = membersById.get(botUserId);
  // The bot left between the state's read and the member list's.
  if (!bot) return null;
  return {
    ...state.guildObject,
    joined_at: bot.joinedAt.toISOString(),
    large,
    unavailable: false,
    // Only the platform's student hubs have a type.
    hub_type: null,
    member_count: memberCount,
    // Partial voice states: the platform leaves their guild_id out, as for channels.
    voice_states: voiceStates.map((voice) => {
      const { guild_id: _guild, ...state } = toVoiceStateObject(voice, membersById.get(voice.userId) ?? null);
      return state;
    }),
    members: members.map(toMemberObject),
    // The platform leaves guild_id out of GUILD_CREATE's channels: the guild is the payload.
    // Channels the bot cannot view are left out, or sent obfuscated to a session that asked.
    channels: channels.rows.flatMap((row) => {
      const { guild_id: _guild, ...channel } = channels.objects.get(row.id)!;
      if (canViewChannel(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) })) return [channel];
      return session.channelObfuscation ? [obfuscateChannel(channel, guildId)] : [];
    }),
    threads: threads.flatMap(({ threadMembers, ...thread }) => {
      const parent = thread.parentId ? channels.byId.get(thread.parentId) : undefined;
      const membership = threadMembers[0] ?? null;
      if (!parent || isPastAutoArchive(thread, now) || !canViewThread(access, parent, thread.type, membership !== null)) return [];
      return [toThreadObject(thread, parent.type, membership)];
    }),
    presences: (session.intents & GatewayIntentBits.GuildPresences) !== 0 ? await shownGuildPresences(db, { id: guildId, memberCount }) : [],
    stage_instances: [],
    guild_scheduled_events: scheduledEvents.map((event) => toScheduledEventObject(event, event.creatorId ? (creatorsById.get(event.creatorId) ?? null) : null)),
    soundboard_sounds: [],
  };
}
