import { LRUCache } from "lru-cache";
import type { Guild, Role } from "~/generated/prisma/client.ts";
import { CHANNEL_INCLUDE, NOT_A_THREAD, sortChannels, toChannelObject, type ChannelObject, type ChannelRow } from "~/server/channels/channel.dto.ts";
import type { Db } from "~/server/db/client.ts";
import { toGuildObject, type GuildObject } from "~/server/guilds/guild.dto.ts";
import { computeBasePermissions, highestRole, type RoleRank } from "~/server/permissions/permissions.ts";
import { sortRoles, toRoleObject, type RoleObject } from "~/server/roles/role.dto.ts";
import { preserialize } from "./wire-json.ts";

/** Members' access kept per cached guild; the least recently used go first. */
export const MEMBERS_CACHED_PER_GUILD = 1000;

/** One member's access to a guild, as far as it does not depend on the clock. */
export type MemberAccess = {
  roleIds: readonly string[];
  communicationDisabledUntil: Date | null;
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
 * drops it (state-cache.ts): the guild row and roles at once, channels and members' access
 * when first asked for. Everything in it is frozen.
 */
export class GuildState {
  readonly guild: Guild;
  /** Every role, @everyone included, in the platform's order. */
  readonly roles: readonly Role[];
  readonly everyone: Role | undefined;
  readonly roleObjects: readonly RoleObject[];
  /** The guild object without counts, pre-serialised. */
  readonly guildObject: GuildObject;
  readonly #db: Db;
  #channels: Promise<GuildChannels> | null = null;
  readonly #members = new LRUCache<string, MemberAccess>({ max: MEMBERS_CACHED_PER_GUILD });

  constructor(db: Db, guild: Guild, roles: readonly Role[]) {
    this.#db = db;
    this.guild = Object.freeze(guild);
    this.roles = Object.freeze(sortRoles(roles).map((role) => Object.freeze(role)));
    this.everyone = this.roles.find((role) => role.id === guild.id);
    this.roleObjects = preserialize(this.roles.map((role) => preserialize(toRoleObject(role))));
    this.guildObject = preserialize(toGuildObject(guild, this.roles));
  }

  channels(): Promise<GuildChannels> {
    this.#channels ??= this.#loadChannels().catch((error: unknown) => {
      this.#channels = null;
      throw error;
    });
    return this.#channels;
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

  /** A member's access, or null when the user is not a member (not cached: they may join). */
  async member(userId: string): Promise<MemberAccess | null> {
    const cached = this.#members.get(userId);
    if (cached) return cached;
    const row = await this.#db.member.findUnique({
      where: { guildId_userId: { guildId: this.guild.id, userId } },
      select: { communicationDisabledUntil: true, roles: { select: { roleId: true } } },
    });
    if (!row) return null;
    const roleIds = row.roles.map((r) => r.roleId);
    const held = new Set(roleIds);
    const memberRoles = this.roles.filter((role) => held.has(role.id));
    const access: MemberAccess = Object.freeze({
      roleIds: Object.freeze(roleIds),
      communicationDisabledUntil: row.communicationDisabledUntil,
      basePermissions: computeBasePermissions({
        ownerId: this.guild.ownerId,
        userId,
        everyonePermissions: this.everyone?.permissions ?? 0n,
        rolePermissions: memberRoles.map((role) => role.permissions),
      }),
      topRole: highestRole(memberRoles),
    });
    this.#members.set(userId, access);
    return access;
  }
}

/** Reads a guild's row and roles; null when there is no such guild. */
export async function readGuildState(db: Db, guildId: string): Promise<GuildState | null> {
  const [guild, roles] = await Promise.all([db.guild.findUnique({ where: { id: guildId } }), db.role.findMany({ where: { guildId } })]);
  return guild ? new GuildState(db, guild, roles) : null;
}
