import { describe, expect, it } from "vitest";
import { createBearerToken } from "~/server/auth/tokens.service.ts";
import { makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

// Requests that race for the same row: one wins, the others see the result, none fails.

const app = useTestApp();

describe("concurrent requests", () => {
  it("adds a member once when the same guilds.join grant is used five times at once", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const { user } = await makeUser(app.db);
    const accessToken = await createBearerToken(app.db, { userId: user.id, applicationId: owner.application.id, scopes: ["guilds.join"] });
    const api = app.as(bot(owner.token));
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.put(`/guilds/${guild.id}/members/${user.id}`, { access_token: accessToken })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 204, 204, 204, 204]);
    const adds = await app.db.event.count({ where: { guildId: guild.id, type: "GUILD_MEMBER_ADD", data: { contains: user.id } } });
    expect(adds).toBe(1);
  });

  it("bans once when the same ban is sent five times at once", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const { user } = await makeUser(app.db);
    const api = app.as(bot(owner.token));
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.put(`/guilds/${guild.id}/bans/${user.id}`, {})));
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204, 204, 204]);
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "GUILD_BAN_ADD" } })).toBe(1);
    expect((await api.get(`/guilds/${guild.id}/bans`)).body).toHaveLength(1);
  });
});
