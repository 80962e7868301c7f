import { InternalEvents } from "~/server/events/event-map.ts";
import { ApplicationFlags } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { INTENT_REVIEW_THRESHOLD, setApprovedIntents } from "~/server/applications/intents.ts";
import { runChange } from "~/server/events/change.ts";
import { newId } from "~/server/snowflake/snowflake.ts";

import { addMember, makeBot, makeUser, writeGuildState } from "~/test/factories.ts";
import { MISSING_ACCESS, memberKit, UNAUTHORIZED } from "~/test/member-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = memberKit(app);

/** A guild whose owner bot may list members (the limited GUILD_MEMBERS intent, set by itself). */
async function setupWithIntent() {
  const setup = await kit.setup();
  const res = await setup.api.patch("/applications/@me", { flags: ApplicationFlags.GatewayGuildMembersLimited });
  expect(res.status).toBe(200);
  return setup;
}

/** Users with the given ids (numbers of different lengths order differently as text). */
async function usersWithIds(guildId: string, ids: string[]) {
  for (const id of ids) {
    await app.db.user.create({ data: { id, username: `numbered_${id}` } });
    await addMember(app.db, guildId, id);
  }
}

describe("GET /guilds/:guildId/members/:userId", () => {
  it("returns the member object", async () => {
    const { guild, api } = await kit.setup();
    const role = await kit.addRole(guild.id, 1);
    const member = await kit.addUser(guild.id, [role.id]);
    const res = await api.get(`/guilds/${guild.id}/members/${member.user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: expect.objectContaining({ id: member.user.id, username: member.user.username }),
      nick: null,
      avatar: null,
      banner: null,
      roles: [role.id],
      joined_at: expect.any(String),
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      communication_disabled_until: null,
      avatar_decoration_data: null,
      collectibles: null,
    });
    expect(Date.now() - Date.parse(res.body.joined_at)).toBeLessThan(60_000);
  });

  it("answers 10007 for a user who is not a member and 10013 for no such user", async () => {
    const { guild, api } = await kit.setup();
    const outsider = await makeUser(app.db);
    const notMember = await api.get(`/guilds/${guild.id}/members/${outsider.user.id}`);
    expect(notMember.status).toBe(404);
    expect(notMember.body).toEqual({ code: 10007, message: "Unknown Member" });
    const noUser = await api.get(`/guilds/${guild.id}/members/${newId()}`);
    expect(noUser.status).toBe(404);
    expect(noUser.body).toEqual({ code: 10013, message: "Unknown User" });
  });

  it("shows a member who joined after an earlier miss (no stale cached answer)", async () => {
    const { guild, api } = await kit.setup();
    const later = await makeUser(app.db);
    expect((await api.get(`/guilds/${guild.id}/members/${later.user.id}`)).status).toBe(404);
    await addMember(app.db, guild.id, later.user.id);
    expect((await api.get(`/guilds/${guild.id}/members/${later.user.id}`)).status).toBe(200);
  });

  it("answers 50001 to a bot outside the guild and 10004 for an unknown guild", async () => {
    const { guild, owner } = await kit.setup();
    const outsider = await makeBot(app.db);
    const res = await app.as(bot(outsider.token)).get(`/guilds/${guild.id}/members/${owner.user.id}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(MISSING_ACCESS);
    const unknown = await app.as(bot(outsider.token)).get(`/guilds/${newId()}/members/${owner.user.id}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 10004, message: "Unknown Guild" });
  });

  it("needs a bot token", async () => {
    const { guild, owner } = await kit.setup();
    const none = await app.as().get(`/guilds/${guild.id}/members/${owner.user.id}`);
    expect(none.status).toBe(401);
    expect(none.body).toEqual(UNAUTHORIZED);
    const member = await kit.addUser(guild.id);
    const withBearer = await member.api.get(`/guilds/${guild.id}/members/${owner.user.id}`);
    expect(withBearer.status).toBe(401);
  });
});

describe("GET /guilds/:guildId/members", () => {
  it("refuses a bot without the GUILD_MEMBERS intent (50001)", async () => {
    const { guild, api } = await kit.setup();
    const res = await api.get(`/guilds/${guild.id}/members`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(MISSING_ACCESS);
  });

  it("returns one member by default, the lowest user id", async () => {
    const { guild, api } = await setupWithIntent();
    await usersWithIds(guild.id, ["700", "90"]);
    const res = await api.get(`/guilds/${guild.id}/members`);
    expect(res.status).toBe(200);
    expect(res.body.map((m: any) => m.user.id)).toEqual(["90"]);
  });

  it("pages with `after` in numeric user id order", async () => {
    const { guild, api, owner } = await setupWithIntent();
    await usersWithIds(guild.id, ["2000", "5", "300", "40"]);
    const ids = async (query: Record<string, string | number>) =>
      (await api.get(`/guilds/${guild.id}/members`, { query })).body.map((m: any) => m.user.id as string);
    expect(await ids({ limit: 2 })).toEqual(["5", "40"]);
    expect(await ids({ limit: 2, after: "40" })).toEqual(["300", "2000"]);
    expect(await ids({ limit: 1000, after: "2000" })).toEqual([owner.user.id]);
    expect(await ids({ limit: 1000, after: owner.user.id })).toEqual([]);
    expect(await ids({ limit: 1000 })).toEqual(["5", "40", "300", "2000", owner.user.id]);
  });

  it("includes members who joined since the last page was read", async () => {
    const { guild, api } = await setupWithIntent();
    const before = await api.get(`/guilds/${guild.id}/members`, { query: { limit: 10 } });
    expect(before.body).toHaveLength(1);
    await kit.addUser(guild.id);
    const after = await api.get(`/guilds/${guild.id}/members`, { query: { limit: 10 } });
    expect(after.body).toHaveLength(2);
  });

  it.each([["0"], ["1001"], ["abc"], ["-1"]])("answers 50035 for limit=%s", async (limit) => {
    const { guild, api } = await setupWithIntent();
    const res = await api.get(`/guilds/${guild.id}/members`, { query: { limit } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
    expect(res.body.errors.limit._errors[0].code).toEqual(expect.any(String));
  });

  it("answers 50035 for an `after` that is not a snowflake", async () => {
    const { guild, api } = await setupWithIntent();
    const res = await api.get(`/guilds/${guild.id}/members`, { query: { after: "abc" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
  });

  it("works with an operator-approved GUILD_MEMBERS flag", async () => {
    const { guild, owner, api } = await kit.setup();
    await setApprovedIntents({ db: app.db, actor: null }, owner.application.id, ["GUILD_MEMBERS"], true);
    const res = await api.get(`/guilds/${guild.id}/members`, { query: { limit: 5 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    await setApprovedIntents({ db: app.db, actor: null }, owner.application.id, ["GUILD_MEMBERS"], false);
    expect((await api.get(`/guilds/${guild.id}/members`)).status).toBe(403);
  });

  it("answers 50001 to a bot outside the guild even with the intent", async () => {
    const { guild } = await kit.setup();
    const outsider = await makeBot(app.db);
    const api = app.as(bot(outsider.token));
    await api.patch("/applications/@me", { flags: ApplicationFlags.GatewayGuildMembersLimited });
    const res = await api.get(`/guilds/${guild.id}/members`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(MISSING_ACCESS);
  });
});

describe("GET /guilds/:guildId/members/search", () => {
  async function searchSetup() {
    const setup = await kit.setup();
    const names = ["Alice", "alfred", "bob", "a_b", "axb", "100%sure", "1000x"];
    const users: Record<string, string> = {};
    for (const username of names) {
      const user = await app.db.user.create({ data: { id: newId(), username } });
      await addMember(app.db, setup.guild.id, user.id);
      users[username] = user.id;
    }
    await kit.updateMember(setup.guild.id, users.bob!, { nick: "Almighty" });
    const search = async (query: Record<string, string | number>) => {
      const res = await setup.api.get(`/guilds/${setup.guild.id}/members/search`, { query: { limit: 1000, ...query } });
      expect(res.status).toBe(200);
      return (res.body as any[]).map((m) => m.user.username as string).sort();
    };
    return { ...setup, users, search };
  }

  it("matches a prefix of the username or the nickname, ignoring case", async () => {
    const { search } = await searchSetup();
    expect(await search({ query: "al" })).toEqual(["Alice", "alfred", "bob"]);
    expect(await search({ query: "ALI" })).toEqual(["Alice"]);
    expect(await search({ query: "almighty" })).toEqual(["bob"]);
    expect(await search({ query: "lice" })).toEqual([]);
  });

  it("ignores case in nicknames with letters outside ASCII", async () => {
    const { search, users, guild } = await searchSetup();
    await kit.updateMember(guild.id, users.alfred!, { nick: "Émile" });
    expect(await search({ query: "Ém" })).toEqual(["alfred"]);
    expect(await search({ query: "ém" })).toEqual(["alfred"]);
    expect(await search({ query: "ÉMI" })).toEqual(["alfred"]);
  });

  it("treats % and _ as literal characters", async () => {
    const { search } = await searchSetup();
    expect(await search({ query: "a_" })).toEqual(["a_b"]);
    expect(await search({ query: "100%" })).toEqual(["100%sure"]);
    expect(await search({ query: "%" })).toEqual([]);
    expect(await search({ query: "_" })).toEqual([]);
  });

  it("returns one member by default and at most `limit`", async () => {
    const { guild, api } = await searchSetup();
    const one = await api.get(`/guilds/${guild.id}/members/search`, { query: { query: "a" } });
    expect(one.status).toBe(200);
    expect(one.body).toHaveLength(1);
    const two = await api.get(`/guilds/${guild.id}/members/search`, { query: { query: "a", limit: 2 } });
    expect(two.body).toHaveLength(2);
  });

  it("needs a query and a limit of 1-1000 (50035)", async () => {
    const { guild, api } = await kit.setup();
    const cases: Record<string, string | number>[] = [{}, { query: "" }, { query: "a", limit: 0 }, { query: "a", limit: 1001 }, { query: "a", limit: "x" }];
    for (const query of cases) {
      const res = await api.get(`/guilds/${guild.id}/members/search`, { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.code).toBe(50035);
    }
  });

  it("is for members of the guild", async () => {
    const { guild } = await kit.setup();
    const outsider = await makeBot(app.db);
    const res = await app.as(bot(outsider.token)).get(`/guilds/${guild.id}/members/search`, { query: { query: "a" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(MISSING_ACCESS);
  });
});

describe("PATCH /applications/@me flags", () => {
  it("switches the limited privileged intents on and off", async () => {
    const { api } = await kit.setup();
    const limited = ApplicationFlags.GatewayGuildMembersLimited | ApplicationFlags.GatewayPresenceLimited | ApplicationFlags.GatewayMessageContentLimited;
    const on = await api.patch("/applications/@me", { flags: limited });
    expect(on.status).toBe(200);
    // flags_new carries the same bits as a string (spec 9).
    expect(on.body).toMatchObject({ flags: limited, flags_new: String(limited) });
    expect((await api.get("/applications/@me")).body).toMatchObject({ flags: limited, flags_new: String(limited) });
    const off = await api.patch("/applications/@me", { flags: 0 });
    expect(off.body).toMatchObject({ flags: 0, flags_new: "0" });
  });

  it.each([
    ["GATEWAY_GUILD_MEMBERS", ApplicationFlags.GatewayGuildMembers],
    ["GATEWAY_PRESENCE", ApplicationFlags.GatewayPresence],
    ["GATEWAY_MESSAGE_CONTENT", ApplicationFlags.GatewayMessageContent],
    ["VERIFIED", 1 << 16],
  ])("refuses to set %s itself (50035)", async (_name, flag) => {
    const { api } = await kit.setup();
    const res = await api.patch("/applications/@me", { flags: flag });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
    expect(res.body.errors.flags._errors[0].message).toEqual(expect.any(String));
    expect((await api.get("/applications/@me")).body.flags).toBe(0);
  });

  it("keeps an approved flag when the app sends its flags back, and cannot drop the approval", async () => {
    const { owner, api } = await kit.setup();
    await setApprovedIntents({ db: app.db, actor: null }, owner.application.id, ["GUILD_MEMBERS"], true);
    const approved = ApplicationFlags.GatewayGuildMembers;
    const res = await api.patch("/applications/@me", { flags: approved | ApplicationFlags.GatewayPresenceLimited });
    expect(res.status).toBe(200);
    expect(res.body.flags).toBe(approved | ApplicationFlags.GatewayPresenceLimited);
    const cleared = await api.patch("/applications/@me", { flags: 0 });
    expect(cleared.body.flags).toBe(approved);
  });

  it("needs a bot token", async () => {
    const user = await makeUser(app.db);
    const res = await app.as(bearer(user.token)).patch("/applications/@me", { flags: 0 });
    expect(res.status).toBe(401);
  });

  it(`stops the limited intent at ${INTENT_REVIEW_THRESHOLD} reached users`, async () => {
    const { guild, owner } = await kit.setup();
    // Ten thousand members in one statement; dates copied from the owner's rows keep each database's format.
    await writeGuildState(app.db, guild.id, async (tx) => {
      await tx.$executeRaw`INSERT INTO "User" ("id", "username", "createdAt")
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${INTENT_REVIEW_THRESHOLD})
        SELECT CAST(800000000000000000 + i AS TEXT), 'crowd_' || CAST(i AS TEXT), (SELECT "createdAt" FROM "User" WHERE "id" = ${owner.user.id}) FROM n`;
      await tx.$executeRaw`INSERT INTO "Member" ("guildId", "userId", "joinedAt")
        SELECT ${guild.id}, u."id", (SELECT "joinedAt" FROM "Member" WHERE "userId" = ${owner.user.id} AND "guildId" = ${guild.id})
        FROM "User" u WHERE u."username" LIKE 'crowd\\_%' ESCAPE '\\'`;
    });
    const newcomer = await kit.addBot(guild.id);
    const refused = await newcomer.api.patch("/applications/@me", { flags: ApplicationFlags.GatewayGuildMembersLimited });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50035);
    expect(refused.body.errors.flags._errors[0].code).toBe("APPLICATION_INTENTS_REVIEW_REQUIRED");

    // An app that set the limited flag while small loses the intent once it is this large.
    const grown = await kit.addBot(guild.id);
    await runChange({ db: app.db, actor: null }, async ({ tx, emit }) => {
      await tx.application.update({ where: { id: grown.application.id }, data: { flags: ApplicationFlags.GatewayGuildMembersLimited } });
      await emit(InternalEvents.ApplicationUpdated, { application_id: grown.application.id });
    });
    const list = await grown.api.get(`/guilds/${guild.id}/members`);
    expect(list.status).toBe(403);
    expect(list.body).toEqual(MISSING_ACCESS);
    await setApprovedIntents({ db: app.db, actor: null }, grown.application.id, ["GUILD_MEMBERS"], true);
    const approved = await grown.api.get(`/guilds/${guild.id}/members`, { query: { limit: 2 } });
    expect(approved.status).toBe(200);
    expect(approved.body.map((m: any) => m.user.username)).toEqual(["crowd_1", "crowd_2"]);
  }, 60_000);
});
