import { describe, expect, it } from "vitest";
import { addMember, makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();

describe("GET /users/@me", () => {
  it("returns the bot user for a bot token and the user for a bearer with identify", async () => {
    const b = await makeBot(app.db);
    const me = await app.as(bot(b.token)).get("/users/@me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: b.user.id, bot: true, discriminator: "0" });
    const u = await makeUser(app.db, ["identify"]);
    const mine = await app.as(bearer(u.token)).get("/users/%40me");
    expect(mine.body.id).toBe(u.user.id);
    expect(mine.body).not.toHaveProperty("email");
  });

  it("needs the identify scope on bearer tokens", async () => {
    const u = await makeUser(app.db, ["guilds"]);
    const res = await app.as(bearer(u.token)).get("/users/@me");
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(50001);
  });
});

describe("GET /users/@me/guilds", () => {
  it("lists the caller's guilds by id with owner, permissions and optional counts", async () => {
    const b = await makeBot(app.db);
    const u = await makeUser(app.db, ["guilds"]);
    const g1 = await makeGuild(app.db, b.actor);
    const g2 = await makeGuild(app.db, b.actor);
    await addMember(app.db, g2.id, u.user.id);
    const own = await app.as(bot(b.token)).get("/users/@me/guilds", { query: { with_counts: true } });
    expect(own.body.map((g: { id: string }) => g.id)).toEqual([g1.id, g2.id]);
    expect(own.body[0]).toMatchObject({ owner: true, name: g1.name, approximate_member_count: 1 });
    expect(own.body[1].approximate_member_count).toBe(2);
    const theirs = await app.as(bearer(u.token)).get("/users/@me/guilds");
    expect(theirs.body).toHaveLength(1);
    expect(theirs.body[0]).toMatchObject({ id: g2.id, owner: false });
    expect(theirs.body[0]).not.toHaveProperty("approximate_member_count");
    expect(BigInt(theirs.body[0].permissions) & 1024n).toBe(1024n);
    // permissions_new repeats the whole bit set (spec 9); the owner's is every permission, past bit 31 too.
    expect(theirs.body[0].permissions_new).toBe(theirs.body[0].permissions);
    expect(own.body[0].permissions_new).toBe(own.body[0].permissions);
    expect(BigInt(own.body[0].permissions_new) > 0xffffffffn).toBe(true);
  });

  it("pages with before, after and limit", async () => {
    const b = await makeBot(app.db);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await makeGuild(app.db, b.actor)).id);
    const api = app.as(bot(b.token));
    expect((await api.get("/users/@me/guilds", { query: { limit: 2 } })).body.map((g: { id: string }) => g.id)).toEqual(ids.slice(0, 2));
    expect((await api.get("/users/@me/guilds", { query: { after: ids[1]! } })).body.map((g: { id: string }) => g.id)).toEqual(ids.slice(2));
    expect((await api.get("/users/@me/guilds", { query: { before: ids[3]!, limit: 2 } })).body.map((g: { id: string }) => g.id)).toEqual(ids.slice(1, 3));
    expect((await api.get("/users/@me/guilds", { query: { limit: 201 } })).status).toBe(400);
  });

  it("needs the guilds scope on bearer tokens", async () => {
    const u = await makeUser(app.db, ["identify"]);
    expect((await app.as(bearer(u.token)).get("/users/@me/guilds")).status).toBe(403);
  });

  it("requires shard from bots using large bot sharding, and filters by it", async () => {
    const b = await makeBot(app.db, { maxConcurrency: 16 });
    const guilds = [];
    for (let i = 0; i < 3; i++) guilds.push(await makeGuild(app.db, b.actor));
    const api = app.as(bot(b.token));
    const missing = await api.get("/users/@me/guilds");
    expect(missing.status).toBe(400);
    expect(missing.body.errors.shard._errors[0].code).toBe("BASE_TYPE_REQUIRED");
    expect((await api.get("/users/@me/guilds", { query: { shard: 16 } })).status).toBe(400);
    const shardOf = (id: string) => Number((BigInt(id) >> 22n) % 16n);
    const target = shardOf(guilds[0]!.id);
    const res = await api.get("/users/@me/guilds", { query: { shard: target } });
    expect(res.status).toBe(200);
    expect(res.body.map((g: { id: string }) => g.id)).toEqual(guilds.filter((g) => shardOf(g.id) === target).map((g) => g.id));
  });
});
