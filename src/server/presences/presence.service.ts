// Presences: one per gateway session (op 3, IDENTIFY's presence), stored so every instance
// agrees. A user's presence is the most recently set one among their sessions that are not
// closed; others see it through the privacy rule (gateway/presence-privacy.ts).
import { createHash } from "node:crypto";
import {
  ActivityType,
  GatewayDispatchEvents,
  PresenceUpdateStatus,
  type GatewayActivity,
  type GatewayPresenceUpdateDispatchData,
  type PresenceUpdateReceiveStatus,
} from "discord-api-types/v10";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { compareSnowflakes } from "~/server/snowflake/snowflake.ts";
import type { TPresenceCommand } from "~/server/gateway/commands.ts";
import { isShownOnline, visiblePresence, type SetPresence } from "~/server/gateway/presence-privacy.ts";
import { parseProfilePrivacy } from "~/server/users/user.schema.ts";
import { toPresenceUpdate } from "./presence.dto.ts";

/** A session's presence when its IDENTIFY sent none: the platform shows a connected bot online. */
const DEFAULT_PRESENCE: TPresenceCommand = { status: PresenceUpdateStatus.Online, activities: [], since: null, afk: false };

/** The platform's custom status activity carries this id; others get one derived from what they are. */
function activityId(type: number, name: string): string {
  if (type === ActivityType.Custom) return "custom";
  return createHash("sha256").update(`${type}:${name}`).digest("hex").slice(0, 16);
}

/** The activities as PRESENCE_UPDATE sends them, stamped with when they were set. */
function toActivities(command: TPresenceCommand, now: Date): GatewayActivity[] {
  return command.activities.map((activity) => ({
    id: activityId(activity.type, activity.name),
    name: activity.name,
    type: activity.type,
    ...(activity.url != null && { url: activity.url }),
    ...(activity.state != null && { state: activity.state }),
    created_at: now.getTime(),
  }));
}

function setPresenceOf(row: { status: string; activities: string }): SetPresence {
  return { status: row.status as PresenceUpdateStatus, activities: JSON.parse(row.activities) as GatewayActivity[] };
}

/** Presences of sessions still open (a closed session waiting for RESUME shows nothing). */
const LIVE: Prisma.PresenceWhereInput = { session: { closedAt: null } };
const NEWEST_FIRST: Prisma.PresenceOrderByWithRelationInput[] = [{ updatedAt: "desc" }, { sessionId: "desc" }];

/** Each user's current presence (their most recent live session's); a user with none is offline. */
async function currentPresences(db: Tx, where: Prisma.PresenceWhereInput): Promise<Map<string, SetPresence>> {
  const rows = await db.presence.findMany({ where: { ...LIVE, ...where }, orderBy: NEWEST_FIRST, select: { userId: true, status: true, activities: true } });
  const byUser = new Map<string, SetPresence>();
  for (const row of rows) if (!byUser.has(row.userId)) byUser.set(row.userId, setPresenceOf(row));
  return byUser;
}

/** The current presences of a guild's members (only these users when given), by user id. */
function guildPresences(db: Tx, guildId: string, userIds?: readonly string[]): Promise<Map<string, SetPresence>> {
  return currentPresences(db, { user: { memberships: { some: { guildId } } }, ...(userIds && { userId: { in: [...userIds] } }) });
}

/**
 * The presences a guild's members show in it (GUILD_CREATE, member chunks with `presences`):
 * those seen online, through the privacy rule for a guild of `memberCount` members; only
 * these users when given.
 */
export async function shownGuildPresences(
  db: Tx,
  guild: { id: string; memberCount: number },
  userIds?: readonly string[],
): Promise<GatewayPresenceUpdateDispatchData[]> {
  const presences = [...(await guildPresences(db, guild.id, userIds))].filter(([, presence]) => isShownOnline(presence));
  if (presences.length === 0) return [];
  const users = await db.user.findMany({ where: { id: { in: presences.map(([userId]) => userId) } }, select: { id: true, profilePrivacy: true } });
  const privacyOf = new Map(users.map((user) => [user.id, parseProfilePrivacy(user.profilePrivacy)]));
  return presences
    .toSorted(([a], [b]) => compareSnowflakes(a, b))
    .map(([userId, presence]) => {
      const audience = { privacy: privacyOf.get(userId) ?? "friends_only", guildMemberCount: guild.memberCount };
      return toPresenceUpdate(userId, guild.id, visiblePresence(presence, audience));
    });
}

/** A guild's members others see online (not offline, not invisible), with the status they show: the widget's members. */
export async function onlineMemberStatuses(db: Tx, guildId: string): Promise<Map<string, PresenceUpdateReceiveStatus>> {
  const statuses = new Map<string, PresenceUpdateReceiveStatus>();
  for (const [userId, presence] of await guildPresences(db, guildId)) {
    // The status does not depend on privacy; only the custom status does.
    const { status } = visiblePresence(presence, { privacy: "everyone", guildMemberCount: 0 });
    if (status !== PresenceUpdateStatus.Offline) statuses.set(userId, status);
  }
  return statuses;
}

/** approximate_presence_count for each guild: its members others see online. */
export async function countOnlineMembers(db: Tx, guildIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map(guildIds.map((id) => [id, 0]));
  if (guildIds.length === 0) return counts;
  const inGuilds = { guildId: { in: [...guildIds] } };
  const presences = await currentPresences(db, { user: { memberships: { some: inGuilds } } });
  const online = [...presences].filter(([, presence]) => isShownOnline(presence)).map(([userId]) => userId);
  if (online.length === 0) return counts;
  const memberships = await db.member.findMany({ where: { ...inGuilds, userId: { in: online } }, select: { guildId: true } });
  for (const { guildId } of memberships) counts.set(guildId, (counts.get(guildId) ?? 0) + 1);
  return counts;
}

/** What decides how a user shows in their guilds: their presence and their privacy setting. */
async function shownState(tx: Tx, userId: string) {
  const presence = (await currentPresences(tx, { userId })).get(userId) ?? null;
  const user = await tx.user.findUnique({ where: { id: userId }, select: { profilePrivacy: true } });
  return { presence, privacy: parseProfilePrivacy(user?.profilePrivacy ?? "everyone"), isKnown: user !== null };
}

/**
 * Runs a change to a user's sessions, presences or privacy in one transaction and emits
 * PRESENCE_UPDATE in each of the user's guilds where it changes what others see there (the
 * privacy rule depends on the guild's size). Changes to one user's presence take turns, so
 * instances racing on the same change (two sweeps) announce it once.
 */
export async function changePresence(db: Db, userId: string, change: (tx: Tx) => Promise<unknown>): Promise<void> {
  await runChange({ db, actor: null }, async ({ tx, emit }) => {
    // Locks the user's row first (a write that changes nothing): on PostgreSQL a racing change
    // waits here and then reads what the first one committed, instead of an older "before".
    await tx.$executeRaw`UPDATE "User" SET "profilePrivacy" = "profilePrivacy" WHERE "id" = ${userId}`;
    const before = await shownState(tx, userId);
    await change(tx);
    const after = await shownState(tx, userId);
    if (!after.isKnown || JSON.stringify(before) === JSON.stringify(after)) return;
    const guilds = await tx.member.findMany({ where: { userId }, select: { guildId: true }, orderBy: { guildId: "asc" } });
    const sizes = await tx.member.groupBy({ by: ["guildId"], where: { guild: { members: { some: { userId } } } }, _count: { _all: true } });
    const sizeOf = new Map(sizes.map((size) => [size.guildId, size._count._all]));
    for (const { guildId } of guilds) {
      const guildMemberCount = sizeOf.get(guildId) ?? 0;
      const was = visiblePresence(before.presence, { privacy: before.privacy, guildMemberCount });
      const shown = visiblePresence(after.presence, { privacy: after.privacy, guildMemberCount });
      if (JSON.stringify(was) !== JSON.stringify(shown)) await emit(GatewayDispatchEvents.PresenceUpdate, toPresenceUpdate(userId, guildId, shown));
    }
  });
}

/** Sets a session's presence (op 3, or IDENTIFY's presence: online when it sent none), announced when others see a change. */
export async function setSessionPresence(db: Db, session: { id: string; userId: string }, command: TPresenceCommand | undefined, now: Date): Promise<void> {
  const presence = command ?? DEFAULT_PRESENCE;
  const data = {
    status: presence.status,
    activities: JSON.stringify(toActivities(presence, now)),
    since: presence.since === null ? null : BigInt(presence.since),
    afk: presence.afk,
    updatedAt: now,
  };
  await changePresence(db, session.userId, (tx) =>
    tx.presence.upsert({ where: { sessionId: session.id }, create: { sessionId: session.id, userId: session.userId, ...data }, update: data }),
  );
}
