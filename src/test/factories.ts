import { randomBytes } from "node:crypto";
import { GatewayDispatchEvents } from "discord-api-types/v10";
import type { Actor, OAuth2Scope } from "~/server/auth/actor.ts";
import { createApplication, createUser, issueBearerToken } from "~/server/applications/application.service.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { addGuildMember } from "~/server/members/member.service.ts";
import { GUILD_OBJECT_INCLUDE, toGuildObject, type GuildObject } from "~/server/guilds/guild.dto.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { newId } from "~/server/snowflake/snowflake.ts";

const unique = () => randomBytes(4).toString("hex");

/** A user with a bearer token carrying `scopes`. */
export async function makeUser(db: Db, scopes: OAuth2Scope[] = ["identify", "guilds", "guilds.join", "sdk.social_layer"]) {
  const user = await createUser(db, { username: `user_${unique()}` });
  const token = await issueBearerToken({ db, actor: null }, { userId: user.id, scopes });
  const actor: Actor = { kind: "bearer", userId: user.id, applicationId: null, scopes: new Set(scopes) };
  return { user, token, actor };
}

/** An application with its bot user and a bot token. */
export async function makeBot(db: Db, options: { maxConcurrency?: number } = {}) {
  const owner = await createUser(db, { username: `owner_${unique()}` });
  const { application, botUser, botToken } = await createApplication(db, { name: `App ${unique()}`, ownerId: owner.id, ...options });
  const actor: Actor = { kind: "bot", userId: botUser.id, applicationId: application.id, scopes: new Set() };
  return { application, user: botUser, token: botToken, actor };
}

/** A guild owned by `actor`, made through the service like any caller would. */
export async function makeGuild(db: Db, actor: Actor, name = `Guild ${unique()}`) {
  return createGuild({ db, actor }, { name });
}

/** Adds a user to a guild through the joining service, as an accepted invite would. */
export async function addMember(db: Db, guildId: string, userId: string, roleIds: string[] = []) {
  await addGuildMember({ db, actor: null }, { guildId, userId, roleIds });
}

/** Rows per INSERT when seeding many members: well under SQLite's bound on parameters per statement. */
const SEED_BATCH = 500;

/**
 * Many new users made members of a guild at once (bulk inserts and one GUILD_UPDATE, not one
 * join each), for tests and benches of large guilds. Returns their user ids in order.
 */
export async function seedMembers(db: Db, guildId: string, people: readonly { username: string; nick?: string }[]): Promise<string[]> {
  const users = people.map((person) => ({ id: newId(), username: person.username }));
  for (let i = 0; i < users.length; i += SEED_BATCH) await db.user.createMany({ data: users.slice(i, i + SEED_BATCH) });
  await writeGuildState(db, guildId, async (tx) => {
    for (let i = 0; i < users.length; i += SEED_BATCH)
      await tx.member.createMany({ data: users.slice(i, i + SEED_BATCH).map((user, j) => ({ guildId, userId: user.id, nick: people[i + j]!.nick ?? null })) });
  });
  return users.map((user) => user.id);
}

/** The guild as it is now in this transaction: the payload of a GUILD_UPDATE for a direct write. */
export async function guildAsUpdated(tx: Tx, guildId: string): Promise<GuildObject> {
  const guild = await tx.guild.findUniqueOrThrow({ where: { id: guildId }, include: GUILD_OBJECT_INCLUDE });
  return toGuildObject(guild, guild.roles, guild);
}

/**
 * Sets up guild state a test needs directly, as an operator would, with a GUILD_UPDATE so
 * caches drop what it changes (the write guard refuses such writes without an event).
 */
export async function writeGuildState<T>(db: Db, guildId: string, write: (tx: Tx) => Promise<T>): Promise<T> {
  return runChange({ db, actor: null }, async ({ tx, emit }) => {
    const result = await write(tx);
    await emit(GatewayDispatchEvents.GuildUpdate, await guildAsUpdated(tx, guildId));
    return result;
  });
}

/**
 * Users shown with this status, as if each had an open gateway session that set it (no
 * PRESENCE_UPDATE is sent): for tests of what reads presences.
 */
export async function addPresences(db: Db, userIds: readonly string[], status: "online" | "idle" | "dnd" | "invisible" | "offline" = "online") {
  const now = new Date();
  const sessions = userIds.map((userId) => ({ id: randomBytes(16).toString("hex"), userId }));
  await db.gatewaySession.createMany({
    data: sessions.map(({ id, userId }) => ({
      id,
      applicationId: "0",
      botUserId: userId,
      intents: 0,
      shardId: 0,
      shardCount: 1,
      largeThreshold: 50,
      messageContent: false,
    })),
  });
  await db.presence.createMany({ data: sessions.map(({ id, userId }) => ({ sessionId: id, userId, status, updatedAt: now })) });
}
