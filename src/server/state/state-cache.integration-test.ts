import { InternalEvents } from "~/server/events/event-map.ts";
import { ChannelType, PermissionFlagsBits } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createBearerToken, resetBotToken, revokeTokens, tokenIdOf } from "~/server/auth/tokens.service.ts";
import { serializePermissions } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { stateCache } from "./state-cache.ts";
import { StateCache, type TokenRecord } from "./state-cache-store.ts";

const app = useTestApp();

/** A guild owned by one bot, and a second bot whose role grants MANAGE_GUILD. */
async function guildWithManager() {
  const owner = await makeBot(app.db);
  const manager = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const role = await app
    .as(bot(owner.token))
    .post(`/guilds/${guild.id}/roles`, { name: "Managers", permissions: serializePermissions(PermissionFlagsBits.ManageGuild) });
  await addMember(app.db, guild.id, manager.user.id, [role.body.id]);
  return { owner, manager, guild, roleId: role.body.id as string };
}

describe("cached guild state", () => {
  it("reads its own writes: a GET right after a PATCH shows the change", async () => {
    const { owner, guild } = await guildWithManager();
    const api = app.as(bot(owner.token));
    expect((await api.get(`/guilds/${guild.id}`)).body.name).toBe(guild.name);
    for (const name of ["First", "Second", "Third"]) {
      expect((await api.patch(`/guilds/${guild.id}`, { name })).status).toBe(200);
      expect((await api.get(`/guilds/${guild.id}`)).body.name).toBe(name);
    }
    const role = await api.post(`/guilds/${guild.id}/roles`, { name: "Fresh" });
    expect((await api.get(`/guilds/${guild.id}/roles`)).body.map((r: { id: string }) => r.id)).toContain(role.body.id);
    const channel = await api.post(`/guilds/${guild.id}/channels`, { name: "fresh" });
    expect((await api.get(`/guilds/${guild.id}/channels`)).body.map((c: { id: string }) => c.id)).toContain(channel.body.id);
  });

  it("refuses at once what a removed permission allowed", async () => {
    const { owner, manager, guild, roleId } = await guildWithManager();
    expect((await app.as(bot(manager.token)).patch(`/guilds/${guild.id}`, { name: "Allowed" })).status).toBe(200);
    await app.as(bot(owner.token)).patch(`/guilds/${guild.id}/roles/${roleId}`, { permissions: "0" });
    const refused = await app.as(bot(manager.token)).patch(`/guilds/${guild.id}`, { name: "Refused" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50013);
  });

  it("applies a timeout set after the member's access was cached", async () => {
    const { manager, guild } = await guildWithManager();
    expect((await app.as(bot(manager.token)).patch(`/guilds/${guild.id}`, { name: "Before" })).status).toBe(200);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.member.update({
        where: { guildId_userId: { guildId: guild.id, userId: manager.user.id } },
        data: { communicationDisabledUntil: new Date(Date.now() + 60_000) },
      }),
    );
    expect((await app.as(bot(manager.token)).patch(`/guilds/${guild.id}`, { name: "Timed out" })).status).toBe(403);
  });

  it("forgets a member who is not in the guild yet only until they join", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    expect((await app.as(bot(owner.token)).get(`/guilds/${guild.id}`)).status).toBe(200);
    const outsider = await makeBot(app.db);
    expect((await app.as(bot(outsider.token)).get(`/guilds/${guild.id}`)).body.code).toBe(50001);
    await addMember(app.db, guild.id, outsider.user.id);
    expect((await app.as(bot(outsider.token)).get(`/guilds/${guild.id}`)).status).toBe(200);
  });

  it("answers Unknown Guild once the guild is deleted, and Unknown Channel for its channels", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const api = app.as(bot(owner.token));
    const channels = await api.get(`/guilds/${guild.id}/channels`);
    expect((await api.get(`/channels/${channels.body[0].id}`)).status).toBe(200);
    expect((await api.delete(`/guilds/${guild.id}`)).status).toBe(204);
    expect((await api.get(`/guilds/${guild.id}`)).body.code).toBe(10004);
    expect((await api.get(`/channels/${channels.body[0].id}`)).body.code).toBe(10003);
  });

  it("keeps a guild's state across new messages, with each channel's last message id moved", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const api = app.as(bot(owner.token));
    const [text] = (await api.get(`/guilds/${guild.id}/channels`)).body.filter((c: { type: number }) => c.type === ChannelType.GuildText);
    const state = await stateCache(app.db).guild(guild.id);
    for (let i = 0; i < 3; i++) {
      const sent = await api.post(`/channels/${text.id}/messages`, { content: `Note ${i}` });
      expect((await api.get(`/channels/${text.id}`)).body.last_message_id).toBe(sent.body.id);
      const listed = (await api.get(`/guilds/${guild.id}/channels`)).body.find((c: { id: string }) => c.id === text.id);
      expect(listed.last_message_id).toBe(sent.body.id);
    }
    expect(await stateCache(app.db).guild(guild.id)).toBe(state);
    // Any other event of the guild still drops it.
    await api.patch(`/guilds/${guild.id}`, { name: "Renamed" });
    expect(await stateCache(app.db).guild(guild.id)).not.toBe(state);
  });

  it("executes a webhook by token until it is deleted or its token changes hands", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const api = app.as(bot(owner.token));
    const [text] = (await api.get(`/guilds/${guild.id}/channels`)).body.filter((c: { type: number }) => c.type === ChannelType.GuildText);
    const hook = (await api.post(`/channels/${text.id}/webhooks`, { name: "Deploys" })).body;
    const execute = () => app.as().post(`/webhooks/${hook.id}/${hook.token}?wait=true`, { content: "done" });
    expect((await execute()).body.author.username).toBe("Deploys");
    await api.patch(`/webhooks/${hook.id}`, { name: "Releases" });
    expect((await execute()).body.author.username).toBe("Releases");
    expect((await api.delete(`/webhooks/${hook.id}`)).status).toBe(204);
    expect((await execute()).body.code).toBe(10015);
  });

  it("keeps at most the configured number of guilds and tokens", async () => {
    const owner = await makeBot(app.db);
    const guilds = await Promise.all([1, 2, 3].map(() => makeGuild(app.db, owner.actor)));
    const cache = new StateCache(app.db, { guilds: 2, tokens: 1 }, app.runtime.events.hearingEpoch);
    for (const guild of guilds) expect(await cache.guild(guild.id)).not.toBeNull();
    const record = (id: string): TokenRecord => ({
      kind: "bot",
      secretHash: Buffer.alloc(32),
      expiresAt: null,
      isRevoked: false,
      bannedUntil: null,
      actor: { ...owner.actor, userId: id },
    });
    await cache.token("1", () => Promise.resolve(record("1")));
    await cache.token("2", () => Promise.resolve(record("2")));
    expect(cache.size).toEqual({ guilds: 2, tokens: 1 });
  });
});

describe("cached tokens", () => {
  it("refuses a revoked token at once, and a reset bot token's predecessors", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const user = await makeUser(app.db);
    expect((await app.as(bearer(user.token)).get("/users/@me")).status).toBe(200);
    await revokeTokens({ db: app.db, actor: null }, [tokenIdOf(user.token)!]);
    expect((await app.as(bearer(user.token)).get("/users/@me")).status).toBe(401);

    expect((await app.as(bot(owner.token)).get(`/guilds/${guild.id}`)).status).toBe(200);
    const fresh = await resetBotToken({ db: app.db, actor: null }, { id: owner.application.id, botUserId: owner.user.id });
    expect((await app.as(bot(owner.token)).get(`/guilds/${guild.id}`)).status).toBe(401);
    expect((await app.as(bot(fresh)).get(`/guilds/${guild.id}`)).status).toBe(200);
    const events = await app.db.event.findMany({ where: { type: InternalEvents.TokensRevoked }, orderBy: { seq: "asc" } });
    expect(events.map((e) => JSON.parse(e.data))).toEqual([{ token_ids: [tokenIdOf(user.token)] }, { token_ids: [tokenIdOf(owner.token)] }]);
  });

  it("honours expiry on every use, cached or not", async () => {
    const user = await makeUser(app.db);
    const token = await createBearerToken(app.db, { userId: user.user.id, applicationId: null, scopes: ["identify"], expiresAt: new Date(Date.now() + 1000) });
    expect((await app.as(bearer(token)).get("/users/@me")).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await app.as(bearer(token)).get("/users/@me")).status).toBe(401);
  });

  // Guilds are read through the same path: an event drops both the entry and a read under way.
  it("does not keep a read that was under way when an event dropped its key", async () => {
    const cache = new StateCache(app.db, { guilds: 1, tokens: 10 }, app.runtime.events.hearingEpoch);
    const id = newId();
    let finish!: (record: TokenRecord) => void;
    const reading = cache.token(id, () => new Promise((resolve) => (finish = resolve)));
    cache.apply({ seq: 0, type: InternalEvents.TokensRevoked, guildId: null, data: { token_ids: [id] }, createdAt: new Date().toISOString() });
    const owner = await makeBot(app.db);
    finish({ kind: "bot", secretHash: Buffer.alloc(32), expiresAt: null, isRevoked: false, bannedUntil: null, actor: owner.actor });
    await reading;
    let reloaded = false;
    await cache.token(id, () => {
      reloaded = true;
      return Promise.resolve(null);
    });
    expect(reloaded).toBe(true);
  });
});
