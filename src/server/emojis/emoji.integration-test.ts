import { AuditLogEvent, GatewayDispatchEvents as E, GatewayIntentBits as I, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "~/server/gateway/session-start-limit.ts";
import type { HttpRequest } from "~/server/http/http-types.ts";
import { answerCdn } from "~/server/images/cdn.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, writeGuildState } from "~/test/factories.ts";
import { identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS, PNG } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

// 1x1 GIF with two frames (animated).
const ANIMATED_GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAIfkEAAAAAAAsAAAAAAEAAQAAAgJEAQA7";
const pngOfBytes = (size: number) => {
  const header = Buffer.from(PNG.split(",")[1]!, "base64");
  return `data:image/png;base64,${Buffer.concat([header, Buffer.alloc(size - header.length)]).toString("base64")}`;
};

async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, P.ViewChannel);
  return { ...base, emojis: `/guilds/${base.guild.id}/emojis` };
}

function cdn(pathname: string) {
  const request: HttpRequest = {
    method: "GET",
    url: pathname,
    header: () => null,
    clientAddress: null,
    stream: () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }) as unknown as AsyncIterable<Uint8Array>,
  };
  return answerCdn(app.db, request);
}

/** `count` emoji rows of the guild, written as an operator would: faster than as many uploads. */
async function seedEmojis(guildId: string, count: number, animated: boolean) {
  await writeGuildState(app.db, guildId, (tx) =>
    tx.emoji.createMany({
      data: Array.from({ length: count }, (_, i) => {
        const id = newId();
        return { id, guildId, name: `seeded_${i}`, animated, image: `emojis/${id}` };
      }),
    }),
  );
}

const fieldError = (body: { code: number; errors?: Record<string, any> }, field: string) => [body.code, body.errors?.[field]?._errors?.[0]?.code];

describe("guild emojis", () => {
  it("creates one (201) with the platform's fields, shown at once in the list, on the guild and on the CDN; delete removes it", async () => {
    const { guild, owner, api, emojis } = await setup();
    // Read once so the guild's state is cached before the change.
    expect((await api.get(`/guilds/${guild.id}`)).body.emojis).toEqual([]);

    const created = await api.post(emojis, { name: "party_parrot", image: PNG });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: "party_parrot",
      roles: [],
      require_colons: true,
      managed: false,
      animated: false,
      available: true,
      user: expect.objectContaining({ id: owner.user.id, bot: true }),
    });
    const { id } = created.body;
    const { user: _user, ...plain } = created.body;
    expect((await api.get(emojis)).body).toEqual([created.body]);
    expect((await api.get(`${emojis}/${id}`)).body).toEqual(created.body);
    expect((await api.get(`/guilds/${guild.id}`)).body.emojis).toEqual([plain]);

    const image = await cdn(`/cdn/emojis/${id}.png`);
    expect([image.status, image.headers["content-type"]]).toEqual([200, "image/png"]);

    expect((await api.delete(`${emojis}/${id}`)).status).toBe(204);
    expect((await api.get(`${emojis}/${id}`)).body).toMatchObject({ code: 10014, message: "Unknown Emoji" });
    expect((await api.get(emojis)).body).toEqual([]);
    expect((await api.get(`/guilds/${guild.id}`)).body.emojis).toEqual([]);
    expect((await cdn(`/cdn/emojis/${id}.png`)).status).toBe(404);
  });

  it("takes a deleted guild's emoji images off the CDN with it", async () => {
    const { guild, api, emojis } = await setup();
    const { id } = (await api.post(emojis, { name: "farewell", image: PNG })).body;
    expect((await api.delete(`/guilds/${guild.id}`)).status).toBe(204);
    expect((await cdn(`/cdn/emojis/${id}.png`)).status).toBe(404);
  });

  it("shows who uploaded one only to members who may create or manage expressions", async () => {
    const { guild, api, emojis } = await setup();
    const { id } = (await api.post(emojis, { name: "wave", image: PNG })).body;
    const plain = await kit.addBotWithRole(guild.id, 0n, 1);
    const creator = await kit.addBotWithRole(guild.id, P.CreateGuildExpressions, 2);
    const manager = await kit.addBotWithRole(guild.id, P.ManageGuildExpressions, 3);

    expect((await plain.api.get(emojis)).body[0]).not.toHaveProperty("user");
    expect((await plain.api.get(`${emojis}/${id}`)).body).not.toHaveProperty("user");
    for (const member of [creator, manager]) expect((await member.api.get(`${emojis}/${id}`)).body.user).toBeDefined();
    expect((await (await kit.setup()).api.get(emojis)).body).toEqual(MISSING_ACCESS);
  });

  it("takes names of 2 to 32 letters, digits and underscores, images up to 256 KiB; an animated GIF is animated", async () => {
    const { api, emojis } = await setup();
    expect(fieldError((await api.post(emojis, { name: "a", image: PNG })).body, "name")).toEqual([50035, "BASE_TYPE_BAD_LENGTH"]);
    expect(fieldError((await api.post(emojis, { name: "x".repeat(33), image: PNG })).body, "name")).toEqual([50035, "BASE_TYPE_BAD_LENGTH"]);
    expect(fieldError((await api.post(emojis, { name: "no-dash", image: PNG })).body, "name")).toEqual([50035, "STRING_TYPE_REGEX"]);
    expect(fieldError((await api.post(emojis, { name: "no_image" })).body, "image")).toEqual([50035, "BASE_TYPE_REQUIRED"]);
    expect(fieldError((await api.post(emojis, { name: "too_big", image: pngOfBytes(256 * 1024 + 1) })).body, "image")).toEqual([50035, "BINARY_TYPE_MAX_SIZE"]);
    expect((await api.post(emojis, { name: "just_fits", image: pngOfBytes(256 * 1024) })).status).toBe(201);
    expect((await api.post(emojis, { name: "x".repeat(32), image: PNG })).status).toBe(201);

    const parrot = await api.post(emojis, { name: "parrot", image: ANIMATED_GIF });
    expect(parrot.body.animated).toBe(true);
    const gif = await cdn(`/cdn/emojis/${parrot.body.id}.gif`);
    expect([gif.status, gif.headers["content-type"]]).toEqual([200, "image/gif"]);

    const renamed = await api.patch(`${emojis}/${parrot.body.id}`, { name: "Parrot_2" });
    expect(renamed.body).toMatchObject({ name: "Parrot_2", animated: true });
    expect(fieldError((await api.patch(`${emojis}/${parrot.body.id}`, { name: "é_accent" })).body, "name")).toEqual([50035, "STRING_TYPE_REGEX"]);
  });

  it("limits one to roles of the guild (10011 otherwise); a deleted role drops out of its list", async () => {
    const { guild, api, emojis } = await setup();
    const role = await kit.addRole(guild.id, 1, { name: "Supporters" });
    const kept = await kit.addRole(guild.id, 2, { name: "Boosters" });
    expect((await api.post(emojis, { name: "nope", image: PNG, roles: ["123456789012345678"] })).body).toMatchObject({ code: 10011 });
    // Roles of another guild are unknown here too.
    const other = await kit.setup();
    expect((await api.post(emojis, { name: "nope", image: PNG, roles: [other.guild.id] })).body.code).toBe(10011);

    const created = await api.post(emojis, { name: "vip", image: PNG, roles: [role.id, kept.id] });
    expect(created.body.roles).toEqual([role.id, kept.id]);
    expect((await api.patch(`${emojis}/${created.body.id}`, { roles: ["123456789012345678"] })).body.code).toBe(10011);

    expect((await api.delete(`/guilds/${guild.id}/roles/${role.id}`)).status).toBe(204);
    expect((await api.get(`${emojis}/${created.body.id}`)).body.roles).toEqual([kept.id]);
    expect((await api.get(`/guilds/${guild.id}`)).body.emojis[0].roles).toEqual([kept.id]);
    expect((await api.patch(`${emojis}/${created.body.id}`, { roles: null })).body.roles).toEqual([]);
  });

  it("serves reactions only for members holding one of its roles, and for everyone once its roles are deleted", async () => {
    const { guild, text, api, emojis } = await setup();
    const role = await kit.addRole(guild.id, 1, { name: "Supporters" });
    const { id } = (await api.post(emojis, { name: "vip", image: PNG, roles: [role.id] })).body;
    const reader = P.ViewChannel | P.ReadMessageHistory | P.AddReactions;
    const supporter = await kit.addBotWithRole(guild.id, reader, 2);
    await kit.updateMember(guild.id, supporter.user.id, { roles: { create: { roleId: role.id } } });
    const other = await kit.addBotWithRole(guild.id, reader, 3);
    const message = (await api.post(`/channels/${text.id}/messages`, { content: "react" })).body.id as string;
    const reaction = `/channels/${text.id}/messages/${message}/reactions/${encodeURIComponent(`vip:${id}`)}/@me`;

    expect((await other.api.put(reaction)).body.code).toBe(10014);
    expect((await supporter.api.put(reaction)).status).toBe(204);
    expect((await api.delete(`/guilds/${guild.id}/roles/${role.id}`)).status).toBe(204);
    // Its list is empty now: everyone may use it.
    expect((await api.get(`${emojis}/${id}`)).body.roles).toEqual([]);
    expect((await other.api.put(reaction)).status).toBe(204);
  });

  it("holds 50 static and 50 animated emojis at tier 0 and more at higher tiers (30008 when full)", async () => {
    const { guild, api, emojis } = await setup();
    await seedEmojis(guild.id, 49, false);
    // Two uploads at once for the last slot: one takes it.
    const racing = await Promise.all([api.post(emojis, { name: "first_in", image: PNG }), api.post(emojis, { name: "second_in", image: PNG })]);
    expect(racing.map((response) => response.status).sort()).toEqual([201, 400]);
    const full = await api.post(emojis, { name: "one_more", image: PNG });
    expect([full.status, full.body.code]).toEqual([400, 30008]);
    // Animated emojis have slots of their own.
    expect((await api.post(emojis, { name: "animated", image: ANIMATED_GIF })).status).toBe(201);
    await seedEmojis(guild.id, 49, true);
    expect((await api.post(emojis, { name: "animated_more", image: ANIMATED_GIF })).body.code).toBe(30008);

    await writeGuildState(app.db, guild.id, (tx) => tx.guild.update({ where: { id: guild.id }, data: { premiumTier: 1 } }));
    expect((await api.post(emojis, { name: "boosted", image: PNG })).status).toBe(201);
    expect((await api.post(emojis, { name: "boosted_gif", image: ANIMATED_GIF })).status).toBe(201);
    expect((await api.get(emojis)).body).toHaveLength(102);
  });

  it("needs CREATE_GUILD_EXPRESSIONS to add, and MANAGE_GUILD_EXPRESSIONS to edit or delete others' (CREATE suffices for one's own)", async () => {
    const { guild, api, emojis } = await setup();
    const plain = await kit.addBotWithRole(guild.id, 0n, 1);
    const creator = await kit.addBotWithRole(guild.id, P.CreateGuildExpressions, 2);
    const manager = await kit.addBotWithRole(guild.id, P.ManageGuildExpressions, 3);
    const owners = (await api.post(emojis, { name: "owners", image: PNG })).body.id as string;

    expect((await plain.api.post(emojis, { name: "plain", image: PNG })).body).toEqual(MISSING_PERMISSIONS);
    // Managing does not imply creating.
    expect((await manager.api.post(emojis, { name: "manager", image: PNG })).body).toEqual(MISSING_PERMISSIONS);
    const own = await creator.api.post(emojis, { name: "mine", image: PNG });
    expect(own.status).toBe(201);

    expect((await creator.api.patch(`${emojis}/${own.body.id}`, { name: "still_mine" })).body.name).toBe("still_mine");
    expect((await creator.api.patch(`${emojis}/${owners}`, { name: "taken_over" })).body).toEqual(MISSING_PERMISSIONS);
    expect((await creator.api.delete(`${emojis}/${owners}`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await plain.api.patch(`${emojis}/${own.body.id}`, { name: "plain" })).body).toEqual(MISSING_PERMISSIONS);
    expect((await manager.api.patch(`${emojis}/${owners}`, { name: "managed_name" })).body.name).toBe("managed_name");
    expect((await manager.api.delete(`${emojis}/${own.body.id}`)).status).toBe(204);
    expect((await creator.api.delete(`${emojis}/${owners}`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await api.get(emojis)).body.map((emoji: { name: string }) => emoji.name)).toEqual(["managed_name"]);
  });

  it("answers 10014 for an emoji of another guild on this guild's paths", async () => {
    const { api, emojis } = await setup();
    const other = await setup();
    const theirs = (await other.api.post(other.emojis, { name: "theirs", image: PNG })).body.id as string;
    expect((await api.get(`${emojis}/${theirs}`)).body.code).toBe(10014);
    expect((await api.patch(`${emojis}/${theirs}`, { name: "mine_now" })).body.code).toBe(10014);
    expect((await api.delete(`${emojis}/${theirs}`)).body.code).toBe(10014);
    expect((await other.api.get(`${other.emojis}/${theirs}`)).body.name).toBe("theirs");
  });

  it("sends GUILD_EMOJIS_UPDATE with the whole list and leaves EMOJI_CREATE, EMOJI_UPDATE and EMOJI_DELETE audit entries", async () => {
    const { guild, owner, api, emojis } = await setup();
    const first = (await api.post(emojis, { name: "first", image: PNG })).body.id as string;
    const role = await kit.addRole(guild.id, 1);
    const second = (await api.post(emojis, { name: "second", image: PNG }, { headers: { "x-audit-log-reason": "more fun" } })).body.id as string;
    await api.patch(`${emojis}/${first}`, { name: "renamed", roles: [role.id] });
    await api.delete(`${emojis}/${second}`);

    const updates = await kit.eventsOf(guild.id, E.GuildEmojisUpdate);
    expect(updates.map((update) => update.emojis.map((emoji: { name: string }) => emoji.name))).toEqual([
      ["first"],
      ["first", "second"],
      ["renamed", "second"],
      ["renamed"],
    ]);
    expect(updates[2]).toEqual({
      guild_id: guild.id,
      emojis: [
        { id: first, name: "renamed", roles: [role.id], require_colons: true, managed: false, animated: false, available: true },
        expect.objectContaining({ id: second }),
      ],
    });

    expect(await kit.auditOf(guild.id, AuditLogEvent.EmojiCreate)).toEqual([
      { userId: owner.user.id, targetId: first, reason: null, changes: [{ key: "name", new_value: "first" }], options: null },
      { userId: owner.user.id, targetId: second, reason: "more fun", changes: [{ key: "name", new_value: "second" }], options: null },
    ]);
    expect((await kit.auditOf(guild.id, AuditLogEvent.EmojiUpdate))[0]!.changes).toEqual([
      { key: "name", old_value: "first", new_value: "renamed" },
      { key: "roles", old_value: [], new_value: [role.id] },
    ]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.EmojiDelete)).toMatchObject([{ targetId: second, changes: [{ key: "name", old_value: "second" }] }]);
    // The audit log shows them to a reader.
    const log = (await api.get(`/guilds/${guild.id}/audit-logs`, { query: { action_type: AuditLogEvent.EmojiCreate } })).body;
    expect(log.audit_log_entries.map((entry: { target_id: string }) => entry.target_id)).toEqual([second, first]);
  });

  it("reaches sessions with GUILD_EXPRESSIONS, never one without, and GUILD_CREATE lists the guild's emojis", async () => {
    const { guild, api, emojis } = await setup();
    const watcher = await kit.addBotWithRole(guild.id, 0n, 1);
    const { client: listening } = await identified(server, watcher.token, { intents: I.Guilds | I.GuildExpressions });
    const { client: deaf } = await identified(server, watcher.token, { intents: I.Guilds });
    for (const client of [listening, deaf]) await client.dispatch(E.GuildCreate);

    const { id } = (await api.post(emojis, { name: "hello", image: PNG })).body;
    expect((await listening.dispatch(E.GuildEmojisUpdate)).d).toMatchObject({ guild_id: guild.id, emojis: [{ id, name: "hello" }] });
    // A role after it reaches the other session: no emoji event came before it.
    await api.post(`/guilds/${guild.id}/roles`, { name: "after" });
    const frames = await deaf.framesThrough((frame) => frame.t === E.GuildRoleCreate, E.GuildRoleCreate);
    expect(frames.map((frame) => frame.t)).not.toContain(E.GuildEmojisUpdate);

    const { client: later } = await identified(server, watcher.token, { intents: I.Guilds });
    expect(((await later.dispatch(E.GuildCreate)).d as { emojis: unknown[] }).emojis).toEqual([
      { id, name: "hello", roles: [], require_colons: true, managed: false, animated: false, available: true },
    ]);
  });
});

describe("application emojis", () => {
  it("belong to the application's own bot alone (50001 for any other), listed as { items }", async () => {
    const { owner, api, emojis } = await setup();
    const path = `/applications/${owner.application.id}/emojis`;
    expect((await api.get(path)).body).toEqual({ items: [] });
    const created = await api.post(path, { name: "app_logo", image: PNG });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "app_logo", roles: [], animated: false, available: true, user: { id: owner.user.id } });
    expect((await api.get(path)).body).toEqual({ items: [created.body] });
    expect((await api.get(`${path}/${created.body.id}`)).body).toEqual(created.body);

    const stranger = await setup();
    expect((await stranger.api.get(path)).body).toEqual(MISSING_ACCESS);
    expect((await stranger.api.post(path, { name: "intruder", image: PNG })).body).toEqual(MISSING_ACCESS);
    expect((await stranger.api.delete(`${path}/${created.body.id}`)).body).toEqual(MISSING_ACCESS);
    // Another application's emoji is unknown under this one.
    const theirs = `/applications/${stranger.owner.application.id}/emojis`;
    expect((await stranger.api.get(`${theirs}/${created.body.id}`)).body.code).toBe(10014);

    // Not even the bot's own guild lists them.
    expect((await api.get(emojis)).body).toEqual([]);
  });

  it("refuses a name the application already uses (50035 at name), on create and rename", async () => {
    const { owner, api } = await setup();
    const path = `/applications/${owner.application.id}/emojis`;
    await api.post(path, { name: "logo", image: PNG });
    const other = (await api.post(path, { name: "logo_dark", image: ANIMATED_GIF })).body;
    expect(other.animated).toBe(true);
    expect(fieldError((await api.post(path, { name: "logo", image: PNG })).body, "name")).toEqual([50035, "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]);
    expect(fieldError((await api.patch(`${path}/${other.id}`, { name: "logo" })).body, "name")).toEqual([50035, "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]);
    expect((await api.patch(`${path}/${other.id}`, { name: "logo_light" })).body.name).toBe("logo_light");
    // Another application may use the same name.
    const stranger = await setup();
    expect((await stranger.api.post(`/applications/${stranger.owner.application.id}/emojis`, { name: "logo", image: PNG })).status).toBe(201);

    expect((await api.delete(`${path}/${other.id}`)).status).toBe(204);
    expect((await api.get(path)).body.items.map((emoji: { name: string }) => emoji.name)).toEqual(["logo"]);
    expect((await cdn(`/cdn/emojis/${other.id}.gif`)).status).toBe(404);
  });

  it("serve the bot's reactions in any guild it is in", async () => {
    const { owner, api } = await setup();
    const { id } = (await api.post(`/applications/${owner.application.id}/emojis`, { name: "app_logo", image: PNG })).body;
    const elsewhere = await setup();
    const reader = await kit.addRole(elsewhere.guild.id, 1, { permissions: P.ViewChannel | P.ReadMessageHistory | P.AddReactions });
    await addMember(app.db, elsewhere.guild.id, owner.user.id, [reader.id]);
    const message = (await elsewhere.api.post(`/channels/${elsewhere.text.id}/messages`, { content: "react to me" })).body.id as string;

    const reaction = `/channels/${elsewhere.text.id}/messages/${message}/reactions/${encodeURIComponent(`app_logo:${id}`)}/@me`;
    expect((await api.put(reaction)).status).toBe(204);
    expect((await elsewhere.api.get(`/channels/${elsewhere.text.id}/messages/${message}`)).body.reactions).toMatchObject([
      { emoji: { id, name: "app_logo", animated: false }, count: 1, me: false },
    ]);
    // No one else may use it.
    expect((await elsewhere.api.put(reaction)).body.code).toBe(10014);
  });
});
