import { GuildMemberFlags } from "discord-api-types/v10";
import { LRUCache } from "lru-cache";
import { Prisma, type Guild, type Role, type Webhook } from "~/generated/prisma/client.ts";
import { CHANNEL_INCLUDE, NOT_A_THREAD, sortChannels, toChannelObject, type ChannelObject, type ChannelRow } from "~/server/channels/channel.dto.ts";
import type { Db } from "~/server/db/client.ts";
import { GUILD_OBJECT_INCLUDE, toGuildObject, type GuildExpressionRows, type GuildObject } from "~/server/guilds/guild.dto.ts";
import { computeBasePermissions, highestRole, type RoleRank } from "~/server/permissions/permissions.ts";
import { sortRoles, toRoleObject, type RoleObject } from "~/server/roles/role.dto.ts";
import { CACHES } from "~/server/runtime/cache-registry.ts";
import { CLOCK_TTL } from "~/server/twin/twin-clock.ts";
import { preserialize } from "./wire-json.ts";

/** Members read by one statement when many are asked for at once (under the 999 bound values Prisma allows SQLite). */
const MEMBER_READ_CHUNK = 500;
/**
 * Answers kept for cached guilds (member objects, member list pages) share one budget,
 * counted in member objects (a page of 100 counts 100), so many guilds or long pages
 * cannot grow memory without bound. About 35 MB when full.
 */
/** About what one member object takes: binary answers (widget images) count their bytes in these. */
const MEMBER_OBJECT_BYTES = 700;
const answers = new LRUCache<string, { value: unknown }>({
  maxSize: CACHES.guildAnswers.maxSize,
  sizeCalculation: ({ value }) => {
    if (Array.isArray(value)) return Math.max(1, value.length);
    return value instanceof Uint8Array ? Math.max(1, Math.ceil(value.byteLength / MEMBER_OBJECT_BYTES)) : 1;
  },
  // Answers with a TTL depend on the clock; a test twin's moving it ages them.
  ...CLOCK_TTL,
});
let nextStateId = 0;

/** One member's access to a guild, as far as it does not depend on the clock. */
export type MemberAccess = {
  roleIds: readonly string[];
  communicationDisabledUntil: Date | null;
  /** Has not completed membership screening (and is not exempt from it). */
  isPending: boolean;
  /** Guild-level permissions before a timeout (owner and ADMINISTRATOR included). */
  basePermissions: bigint;
  topRole: RoleRank | null;
};

/** The guild's channels (threads excepted) in the platform's order, with their wire objects. */
export type GuildChannels = {
  rows: readonly ChannelRow[];
  byId: ReadonlyMap<string, ChannelRow>;
  /** Wire objects by channel id, frozen and pre-serialised. */
  objects: ReadonlyMap<string, ChannelObject>;
};

/**
 * What a guild is, read once and shared by every request until one of the guild's events
 * drops it (state-cache-store.ts): the guild row and roles at once, channels and members' access
 * when first asked for. Everything in it is frozen.
 */
export class GuildState {
  readonly guild: Guild;
  /** Every role, @everyone included, in the platform's order. */
  readonly roles: readonly Role[];
  readonly roleObjects: readonly RoleObject[];
  /** The guild's emoji and sticker rows, in upload order. */
  readonly expressions: GuildExpressionRows;
  /** The guild object without counts, pre-serialised. */
  readonly guildObject: GuildObject;
  readonly #db: Db;
  #channels: Promise<GuildChannels> | null = null;
  // The loaded channels, so a new message can move a channel's last message id in place.
  #loadedChannels: GuildChannels | null = null;
  readonly #webhooks = new LRUCache<string, { row: Webhook | null }>({ max: CACHES.guildWebhooks.max });
  // Insertion order is recency order: a hit moves to the end, the first goes when full.
  readonly #members = new Map<string, MemberAccess>();
  // Answers of a state are keyed by its id: a newer state of the guild never sees them.
  readonly #id = nextStateId++;
  readonly #loadingAnswers = new Map<string, Promise<unknown>>();

  constructor(db: Db, guild: Guild, roles: readonly Role[], expressions: GuildExpressionRows, member?: { userId: string; row: MemberAccessRow }) {
    this.#db = db;
    this.guild = Object.freeze(guild);
    this.roles = Object.freeze(sortRoles(roles).map((role) => Object.freeze(role)));
    this.roleObjects = preserialize(this.roles.map((role) => preserialize(toRoleObject(role))));
    this.expressions = Object.freeze({
      emojis: Object.freeze(expressions.emojis.map((row) => Object.freeze(row))),
      stickers: Object.freeze(expressions.stickers.map((row) => Object.freeze(row))),
    });
    this.guildObject = preserialize(toGuildObject(guild, this.roles, this.expressions));
    if (member) this.#remember(member.userId, member.row);
  }

  channels(): Promise<GuildChannels> {
    if (this.#channels) return this.#channels;
    const loading = this.#loadChannels().then(
      (channels) => {
        if (this.#channels === loading) this.#loadedChannels = channels;
        return channels;
      },
      (error: unknown) => {
        if (this.#channels === loading) this.#channels = null;
        throw error;
      },
    );
    this.#channels = loading;
    return loading;
  }

  /**
   * A new message in one of the guild's channels moves only that channel's last message id,
   * so the state is kept and the channel patched rather than the whole guild read again
   * (webhooks and bots post far more often than guilds change). False when the channel is
   * not one of the guild's loaded channels (a thread, whose counts change too): the caller
   * drops the state then. Channels still loading are read again, as they may predate it.
   */
  moveLastMessage(channelId: string, messageId: string): boolean {
    const loaded = this.#loadedChannels;
    if (!loaded) {
      this.#channels = null;
      return true;
    }
    const row = loaded.byId.get(channelId);
    if (!row) return false;
    if (row.lastMessageId !== null && BigInt(row.lastMessageId) >= BigInt(messageId)) return true;
    const next = Object.freeze({ ...row, lastMessageId: messageId });
    const object = preserialize(toChannelObject(next));
    const channels: GuildChannels = {
      rows: Object.freeze(loaded.rows.map((each) => (each.id === channelId ? next : each))),
      byId: new Map(loaded.byId).set(channelId, next),
      objects: new Map(loaded.objects).set(channelId, object),
    };
    this.#loadedChannels = channels;
    this.#channels = Promise.resolve(channels);
    return true;
  }

  /** One of the guild's webhooks by id (null when it has none by that id), for execution by token. */
  async webhook(webhookId: string): Promise<Webhook | null> {
    const kept = this.#webhooks.get(webhookId);
    if (kept) return kept.row;
    const row = await this.#db.webhook.findFirst({ where: { id: webhookId, guildId: this.guild.id } });
    this.#webhooks.set(webhookId, { row: row && Object.freeze(row) });
    return row;
  }

  async #loadChannels(): Promise<GuildChannels> {
    const rows = await this.#db.channel.findMany({ where: { guildId: this.guild.id, type: NOT_A_THREAD }, include: CHANNEL_INCLUDE });
    const sorted = Object.freeze(sortChannels(rows).map((row) => Object.freeze(row)));
    return {
      rows: sorted,
      byId: new Map(sorted.map((row) => [row.id, row])),
      objects: new Map(sorted.map((row) => [row.id, preserialize(toChannelObject(row))])),
    };
  }

  /**
   * An answer read from the guild's rows, kept with this state and so dropped with it by
   * the guild's next event. Only for answers made of guild rows whose every change is an
   * event for this guild. A failed read is not kept. `ttlMs` bounds answers that also
   * depend on the clock (counts of members seen lately).
   */
  answer<T>(key: string, load: () => Promise<T>, ttlMs?: number): Promise<T> {
    const sharedKey = `${this.#id} ${key}`;
    const kept = answers.get(sharedKey);
    if (kept) return Promise.resolve(kept.value as T);
    const loading = this.#loadingAnswers.get(key) as Promise<T> | undefined;
    if (loading) return loading;
    const promise = load()
      .then((value) => {
        answers.set(sharedKey, { value }, ttlMs === undefined ? undefined : { ttl: ttlMs });
        return value;
      })
      .finally(() => this.#loadingAnswers.delete(key));
    this.#loadingAnswers.set(key, promise);
    return promise;
  }

  /** A member's access, or null when the user is not a member (not cached: they may join). */
  async member(userId: string): Promise<MemberAccess | null> {
    const cached = this.#members.get(userId);
    if (cached) {
      this.#members.delete(userId);
      this.#members.set(userId, cached);
      return cached;
    }
    const row = await readMemberRow(this.#db, this.guild.id, userId);
    return row ? this.#remember(userId, row) : null;
  }

  /**
   * Several members' access at once (non-members left out): those not cached are read in one
   * statement per chunk, as routing one event asks for every bot session in the guild.
   */
  async members(userIds: readonly string[]): Promise<Map<string, MemberAccess>> {
    const found = new Map<string, MemberAccess>();
    const missing: string[] = [];
    for (const userId of userIds) {
      const cached = this.#members.get(userId);
      if (cached) found.set(userId, cached);
      else missing.push(userId);
    }
    for (let i = 0; i < missing.length; i += MEMBER_READ_CHUNK) {
      const rows = await readMemberRows(this.#db, this.guild.id, missing.slice(i, i + MEMBER_READ_CHUNK));
      for (const [userId, row] of rows) found.set(userId, this.#remember(userId, row));
    }
    return found;
  }

  #remember(userId: string, row: MemberAccessRow): MemberAccess {
    const access = this.accessOf(userId, row);
    if (this.#members.size >= CACHES.guildMembers.max) this.#members.delete(this.#members.keys().next().value!);
    this.#members.set(userId, access);
    return access;
  }

  /** A member's access from their row (lists read many at once); not cached. */
  accessOf(userId: string, row: MemberAccessRow): MemberAccess {
    const held = new Set(row.roleIds);
    const memberRoles = this.roles.filter((role) => held.has(role.id));
    return Object.freeze({
      roleIds: Object.freeze([...row.roleIds]),
      communicationDisabledUntil: row.communicationDisabledUntil,
      isPending: isRestrictedByScreening(row),
      basePermissions: computeBasePermissions({
        ownerId: this.guild.ownerId,
        userId,
        everyonePermissions: this.roles.find((role) => role.id === this.guild.id)?.permissions ?? 0n,
        rolePermissions: memberRoles.map((role) => role.permissions),
      }),
      topRole: highestRole(memberRoles),
    });
  }
}

export type MemberAccessRow = { communicationDisabledUntil: Date | null; pending: boolean; flags: number; roleIds: readonly string[] };

/** A pending member is held back by screening unless BYPASSES_VERIFICATION exempts them. */
function isRestrictedByScreening(row: { pending: boolean; flags: number }): boolean {
  return row.pending && (row.flags & GuildMemberFlags.BypassesVerification) === 0;
}

/**
 * A member's timeout and roles in one statement, or null for a non-member: the first
 * request after every change to a guild reads it, and Prisma's nested select takes two.
 */
async function readMemberRow(db: Db, guildId: string, userId: string): Promise<MemberAccessRow | null> {
  return (await readMemberRows(db, guildId, [userId])).get(userId) ?? null;
}

/** Members' timeouts and roles in one statement (at most MEMBER_READ_CHUNK users); non-members are absent. */
async function readMemberRows(db: Db, guildId: string, userIds: readonly string[]): Promise<Map<string, MemberAccessRow>> {
  const rows = await db.$queryRaw<
    { userId: string; communicationDisabledUntil: Date | null; pending: boolean | number; flags: number; roleId: string | null }[]
  >`
    SELECT m."userId", m."communicationDisabledUntil", m."pending", m."flags", r."roleId" FROM "Member" m
    LEFT JOIN "MemberRole" r ON r."guildId" = m."guildId" AND r."userId" = m."userId"
    WHERE m."guildId" = ${guildId} AND m."userId" IN (${Prisma.join(userIds)})`;
  const members = new Map<string, MemberAccessRow & { roleIds: string[] }>();
  for (const row of rows) {
    let member = members.get(row.userId);
    if (!member) {
      // SQLite answers booleans as 0/1 in raw queries.
      member = { communicationDisabledUntil: row.communicationDisabledUntil, pending: Boolean(row.pending), flags: Number(row.flags), roleIds: [] };
      members.set(row.userId, member);
    }
    if (row.roleId) member.roleIds.push(row.roleId);
  }
  return members;
}

/**
 * Reads a guild's row and roles, and the access of the member asking (the first request
 * after a change needs both); null when there is no such guild.
 */
export async function readGuildState(db: Db, guildId: string, forUserId: string | null): Promise<GuildState | null> {
  const [guild, member] = await Promise.all([
    db.guild.findUnique({ where: { id: guildId }, include: GUILD_OBJECT_INCLUDE }),
    forUserId ? readMemberRow(db, guildId, forUserId) : null,
  ]);
  if (!guild) return null;
  const { roles, emojis, stickers, ...row } = guild;
  return new GuildState(db, row, roles, { emojis, stickers }, forUserId && member ? { userId: forUserId, row: member } : undefined);
}
