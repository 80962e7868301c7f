import { describe, expect, it } from "vitest";
import { makeBot, makeGuild } from "~/test/factories.ts";
import { lobbyKit } from "~/test/lobby-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

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
