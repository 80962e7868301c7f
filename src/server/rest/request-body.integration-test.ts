import { describe, expect, it } from "vitest";
import { makeBot, makeGuild } from "~/test/factories.ts";
import { lobbyKit } from "~/test/lobby-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createTRPCContext } from "~/server/trpc/init.ts";
import { createCaller } from "~/server/trpc/root.ts";

const app = useTestApp();
const lobbies = lobbyKit(app);
const JSON_TYPE = { "content-type": "application/json" };

describe("JSON bodies", () => {
  it("answers a body nested deeper than any request needs with 50109, not a 500", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    const deep = `{"name":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const res = await app.as(bot(b.token)).patch(`/guilds/${guild.id}`, undefined, { rawBody: deep, headers: JSON_TYPE });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 50109, message: "The request body contains invalid JSON." });
  });

  it("takes bodies as deep as documented ones, and answers an invalid value without echoing all of it", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    const api = app.as(bot(b.token));
    const nested = JSON.parse(`${"[".repeat(20)}"x"${"]".repeat(20)}`) as unknown;
    const long = "9".repeat(5000) + "x";
    for (const value of [nested, long, { deep: nested, many: Array.from({ length: 2000 }, (_, i) => i) }]) {
      const res = await api.patch(`/guilds/${guild.id}`, { system_channel_flags: value });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(50035);
      const message = res.body.errors.system_channel_flags._errors[0].message as string;
      expect(message.length).toBeLessThan(200);
    }
  });

  it("keeps a field error on a metadata key named like one of Object's built-ins", async () => {
    const { server } = await lobbies.game(0);
    const res = await server.post("/lobbies", undefined, { rawBody: '{"metadata": {"constructor": 1, "toString": "x", "valueOf": 2}}', headers: JSON_TYPE });
    expect(res.status).toBe(400);
    const leaf = { _errors: [{ code: "BASE_TYPE_STRING", message: "Could not interpret value as string." }] };
    expect(res.body).toEqual({ code: 50035, message: "Invalid Form Body", errors: { metadata: { constructor: leaf, valueOf: leaf } } });
  });
});

describe("NUL characters", () => {
  // PostgreSQL cannot store them; no field of any request may hold one, on either database.
  it("refuses one in a JSON field, a JSON key, payload_json, a query and a dashboard input with 50035, changing nothing", async () => {
    const b = await makeBot(app.db);
    const guild = await makeGuild(app.db, b.actor);
    const api = app.as(bot(b.token));

    const named = await api.patch(`/guilds/${guild.id}`, { name: "bad\u0000name" });
    expect(named.status).toBe(400);
    expect(named.body.errors.name._errors[0].code).toBe("BASE_TYPE_BAD_CHARACTERS");
    const { server } = await lobbies.game(0);
    const keyed = await server.post("/lobbies", { metadata: { "k\u0000": "v" } });
    expect(keyed.status).toBe(400);
    expect(keyed.body.errors.metadata._errors[0].code).toBe("BASE_TYPE_BAD_CHARACTERS");

    const channel = (await api.get(`/guilds/${guild.id}/channels`)).body.find((c: { type: number }) => c.type === 0) as { id: string };
    const form = new FormData();
    form.set("payload_json", JSON.stringify({ content: "hi\u0000" }));
    const posted = await app.dispatch(
      new Request(`http://test/api/v10/channels/${channel.id}/messages`, { method: "POST", headers: { authorization: `Bot ${b.token}` }, body: form }),
    );
    expect(posted.status).toBe(400);
    expect(((await posted.json()) as { code: number }).code).toBe(50035);
    expect((await api.get(`/channels/${channel.id}/messages`)).body).toEqual([]);

    const searched = await api.get(`/guilds/${guild.id}/members/search`, { query: { query: "a\u0000" } });
    expect(searched.status).toBe(400);

    const caller = createCaller(createTRPCContext({ db: app.db, userId: b.user.id }));
    await expect(caller.guild.modify({ guildId: guild.id, body: { name: "dash\u0000board" } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await api.get(`/guilds/${guild.id}`)).body.name).toBe(guild.name);
  });
});
