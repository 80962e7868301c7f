// Shared setup for the member domain's integration tests: a guild owned by a bot, roles,
// members with roles, voice channels, and the events and audit entries a change stored.
import { ChannelType } from "discord-api-types/v10";
import type { Prisma } from "~/generated/prisma/client.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "./factories.ts";
import { bearer, bot } from "./rest-client.ts";
import type { TestApp } from "./test-app.ts";

export const UNAUTHORIZED = { code: 0, message: "401: Unauthorized" };
export const MISSING_ACCESS = { code: 50001, message: "Missing Access" };
export const MISSING_PERMISSIONS = { code: 50013, message: "Missing Permissions" };
export const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
export const DAY_MS = 24 * 60 * 60 * 1000;

export function memberKit(app: TestApp) {
  /** A guild owned by a fresh bot, with that bot's REST client. */
  async function setup() {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    return { owner, guild, api: app.as(bot(owner.token)) };
  }

  /** The same, with the text and voice channels every new guild starts with. */
  async function setupWithChannels() {
    const base = await setup();
    const channels = (await base.api.get<{ id: string; type: number }[]>(`/guilds/${base.guild.id}/channels`)).body;
    const text = channels.find((channel) => channel.type === ChannelType.GuildText)!;
    const voice = channels.find((channel) => channel.type === ChannelType.GuildVoice)!;
    return { ...base, text, voice };
  }

  async function addRole(guildId: string, position: number, data: { permissions?: bigint; managed?: boolean; name?: string } = {}) {
    return writeGuildState(app.db, guildId, (tx) =>
      tx.role.create({
        data: { id: newId(), guildId, name: data.name ?? `role ${position}`, position, permissions: data.permissions ?? 0n, managed: data.managed ?? false },
      }),
    );
  }

  /** A bot in the guild whose only role grants `permissions` at `position`. */
  async function addBotWithRole(guildId: string, permissions: bigint, position = 5) {
    const member = await makeBot(app.db);
    const role = await addRole(guildId, position, { permissions, name: `bot role ${position}` });
    await addMember(app.db, guildId, member.user.id, [role.id]);
    return { ...member, role, api: app.as(bot(member.token)) };
  }

  /** A bot in the guild holding exactly `roleIds`. */
  async function addBot(guildId: string, roleIds: string[] = []) {
    const member = await makeBot(app.db);
    await addMember(app.db, guildId, member.user.id, roleIds);
    return { ...member, api: app.as(bot(member.token)) };
  }

  /** A user (bearer token) in the guild holding `roleIds`. */
  async function addUser(guildId: string, roleIds: string[] = []) {
    const member = await makeUser(app.db);
    await addMember(app.db, guildId, member.user.id, roleIds);
    return { ...member, api: app.as(bearer(member.token)) };
  }

  async function setFeatures(guildId: string, features: string[]) {
    await writeGuildState(app.db, guildId, (tx) => tx.guild.update({ where: { id: guildId }, data: { features: JSON.stringify(features) } }));
  }

  async function updateMember(guildId: string, userId: string, data: Prisma.MemberUpdateInput) {
    await writeGuildState(app.db, guildId, (tx) => tx.member.update({ where: { guildId_userId: { guildId, userId } }, data }));
  }

  /** A voice channel with permission overwrites (type 0 role, 1 member). */
  async function voiceChannel(guildId: string, overwrites: { id: string; type: 0 | 1; allow?: bigint; deny?: bigint }[] = []) {
    return writeGuildState(app.db, guildId, (tx) =>
      tx.channel.create({
        data: {
          id: newId(),
          guildId,
          name: "voice",
          type: ChannelType.GuildVoice,
          overwrites: { create: overwrites.map((o) => ({ targetId: o.id, type: o.type, allow: o.allow ?? 0n, deny: o.deny ?? 0n })) },
        },
      }),
    );
  }

  async function eventsOf(guildId: string, type: string) {
    const rows = await app.db.event.findMany({ where: { guildId, type }, orderBy: { seq: "asc" } });
    return rows.map((row) => JSON.parse(row.data) as Record<string, any>);
  }

  async function auditOf(guildId: string, actionType: number) {
    const rows = await app.db.auditLogEntry.findMany({ where: { guildId, actionType }, orderBy: { id: "asc" } });
    return rows.map((row) => ({
      userId: row.userId,
      targetId: row.targetId,
      reason: row.reason,
      changes: row.changes ? (JSON.parse(row.changes) as Record<string, any>[]) : null,
      options: row.options ? (JSON.parse(row.options) as Record<string, string>) : null,
    }));
  }

  async function memberRow(guildId: string, userId: string) {
    return app.db.member.findUnique({ where: { guildId_userId: { guildId, userId } }, include: { roles: true } });
  }

  return { setup, setupWithChannels, addRole, addBotWithRole, addBot, addUser, setFeatures, updateMember, voiceChannel, eventsOf, auditOf, memberRow };
}
