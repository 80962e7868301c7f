// What reads find about a viewer when an event arrives, for live-notice.ts to decide on: the
// same cached guild state and permission functions the services read with, so a viewer who
// loses access stops hearing at the next event. Lookups one event needs for every viewer
// (its routed form, a thread's parent, a lobby's application) are made once per event.
import { ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Db } from "~/server/db/client.ts";
import { storedEventOf, type StoredEvent } from "~/server/events/event-map.ts";
import { toRoutedEvent, type RoutedEvent } from "~/server/gateway/routed-event.ts";
import { auditLogDenial, inviteListDenial, manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import { bansDenial } from "~/server/members/member-rules.ts";
import { channelPermissions, accessOfMember, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import type { GuildState, MemberAccess } from "~/server/state/guild-state.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { canSeeThread, threadPermissions } from "~/server/threads/thread-access.ts";
import type { GuildViewer } from "./live-notice.ts";

/** Every listener hears the same event object, so what it takes to read is kept with it while it lives. */
function oncePerEvent<A extends unknown[], T>(compute: (event: StoredEvent, ...rest: A) => T): (event: StoredEvent, ...rest: A) => T {
  const memo = new WeakMap<StoredEvent, T>();
  return (event, ...rest) => {
    if (!memo.has(event)) memo.set(event, compute(event, ...rest));
    return memo.get(event)!;
  };
}

export const routedOf = oncePerEvent(toRoutedEvent);

type ThreadFacts = { id: string; parentId: string | null; type: number };

/** The thread a channel-scoped event names when it is not one of the guild's channels; a deleted thread is known from the event. */
const threadOf = oncePerEvent(async (event: StoredEvent, db: Db): Promise<ThreadFacts | null> => {
  const scope = routedOf(event)?.channel;
  if (!scope) return null;
  const found = await db.channel.findUnique({ where: { id: scope.id }, select: { id: true, parentId: true, type: true } });
  if (found) return found;
  return scope.thread ? { id: scope.id, ...scope.thread } : null;
});

/** The viewer's permissions in the event's channel or thread; 0n where it does not show to them. */
async function permissionsIn(db: Db, state: GuildState, access: GuildAccess, stored: StoredEvent, event: RoutedEvent): Promise<bigint> {
  const scope = event.channel!;
  const channels = await state.channels();
  const row = channels.byId.get(scope.id);
  const channel = scope.carried ?? (row && { type: row.type, overwrites: toOverwriteInputs(row.overwrites) });
  if (channel) return channelPermissions(access, channel);
  const thread = await threadOf(stored, db);
  const parent = thread?.parentId ? channels.byId.get(thread.parentId) : undefined;
  if (!thread || !parent) return 0n;
  const permissions = threadPermissions(access, parent, thread.type);
  // Those a thread member change names count as members: a viewer removed from a private thread hears it.
  const isMember =
    event.threadMemberIds.includes(access.userId) ||
    (thread.type === ChannelType.PrivateThread &&
      !hasPermission(permissions, P.ManageThreads) &&
      (await db.threadMember.count({ where: { threadId: thread.id, userId: access.userId } })) > 0);
  return canSeeThread(permissions, thread.type, isMember) ? permissions : 0n;
}

/**
 * Member reads of one guild's state asked for in the same turn, read together: an event reaches
 * every viewer at once, and the change that sent it dropped the state they were cached in.
 */
const memberReads = new WeakMap<GuildState, { userIds: Set<string>; read: Promise<Map<string, MemberAccess>> }>();

function memberOf(state: GuildState, userId: string): Promise<MemberAccess | null> {
  let batch = memberReads.get(state);
  if (!batch) {
    const userIds = new Set<string>();
    const read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      memberReads.delete(state);
      return state.members([...userIds]);
    });
    batch = { userIds, read };
    memberReads.set(state, batch);
  }
  batch.userIds.add(userId);
  return batch.read.then((members) => members.get(userId) ?? null);
}

const OUTSIDER = { isMember: false, reads: { bans: false, invites: false, integrations: false, auditLog: false }, inChannel: null } as const;

/** What reads say about `userId` for a guild event, now. */
export async function guildViewerOf(db: Db, stored: StoredEvent, event: RoutedEvent, userId: string): Promise<GuildViewer> {
  const state = await stateCache(db).guild(event.guildId, userId);
  const member = state && (await memberOf(state, userId));
  if (!state || !member) return { userId, ...OUTSIDER };
  const access = accessOfMember(state, userId, member);
  return {
    userId,
    isMember: true,
    reads: { bans: !bansDenial(access), invites: !inviteListDenial(access), integrations: !manageGuildDenial(access), auditLog: !auditLogDenial(access) },
    inChannel: event.channel ? await permissionsIn(db, state, access, stored, event) : null,
  };
}

/**
 * Whether the outbox holds, after `seq`, the viewer's joining the guild or a change of their
 * membership (their roles): what they see now is not what they could see before it, so a
 * replay from `seq` read with today's facts would tell a newcomer of messages made and deleted
 * before they came. Retention deletes oldest first, so a join it deleted leaves `seq` gone too.
 */
export async function isMembershipChangedAfter(db: Db, guildId: string, userId: string, seq: number): Promise<boolean> {
  const { GuildMemberAdd, GuildMemberUpdate } = GatewayDispatchEvents;
  // `contains` narrows the rows read to those naming the viewer; the payload says whom they are about.
  const rows = await db.event.findMany({ where: { guildId, seq: { gt: seq }, type: { in: [GuildMemberAdd, GuildMemberUpdate] }, data: { contains: userId } } });
  return rows.map(storedEventOf).some((event) => (event.type === GuildMemberAdd || event.type === GuildMemberUpdate) && event.data.user.id === userId);
}

/** The application whose lobby an event names: lobby and message objects carry it; the others are looked up (null once the lobby is gone). */
export const lobbyApplicationOf = oncePerEvent(async (event: StoredEvent, db: Db): Promise<string | null> => {
  const data = event.data as { application_id?: string; lobby_id?: string };
  if (data.application_id) return data.application_id;
  if (!data.lobby_id) return null;
  const lobby = await db.lobby.findUnique({ where: { id: data.lobby_id }, select: { applicationId: true } });
  return lobby?.applicationId ?? null;
});

/** Whether `userId` owns the application (its Lobbies pages' rule), now. */
export async function ownsApplication(db: Db, applicationId: string, userId: string): Promise<boolean> {
  const app = await db.application.findUnique({ where: { id: applicationId }, select: { ownerId: true } });
  return app?.ownerId === userId;
}
