import { ApplicationFlags, GatewayCloseCodes, GatewayIntentBits, GatewayOpcodes, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { botInGuilds, identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { bot as botAuth } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

// A privileged intent taken away ends the sessions that asked for it (4014, as IDENTIFY would
// refuse them), on every instance, and a RESUME of one is refused the same way.

const app = useTestApp();
const options = { router: () => createEventRouter({ db: app.db }), limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } } };
const first = useGatewayServer(app, options);
const second = useGatewayServer(app, options);
const withContent = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent;
const isStored = async (sessionId: string) => (await app.db.gatewaySession.findUnique({ where: { id: sessionId } })) !== null;

describe("a privileged intent taken away", () => {
  it("closes the live sessions that asked for it with 4014, on every instance, and leaves the others", async () => {
    const { bot } = await botInGuilds(app, 1);
    await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["MESSAGE_CONTENT"], true);
    const asked = [await identified(first, bot.token, { intents: withContent }), await identified(second, bot.token, { intents: withContent })];
    const without = await identified(second, bot.token, { intents: GatewayIntentBits.Guilds });

    await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["MESSAGE_CONTENT"], false);
    for (const { client } of asked) expect(await client.closeCode()).toBe(GatewayCloseCodes.DisallowedIntents);
    // 4014 ends the session: it is not resumable.
    for (const { ready } of asked) await until(async () => !(await isStored((ready.d as GatewayReadyDispatchData).session_id)));
    without.client.send({ op: GatewayOpcodes.Heartbeat, d: without.ready.s });
    expect(await without.client.waitFor((frame) => frame.op === GatewayOpcodes.HeartbeatAck, "ACK")).toBeTruthy();
  });

  it("closes them when the application switches its own limited intent off over REST", async () => {
    const { bot } = await botInGuilds(app, 0);
    const api = app.as(botAuth(bot.token));
    expect((await api.patch("/applications/@me", { flags: ApplicationFlags.GatewayMessageContentLimited })).status).toBe(200);
    const { client } = await identified(first, bot.token, { intents: withContent });
    expect((await api.patch("/applications/@me", { flags: 0 })).status).toBe(200);
    expect(await client.closeCode()).toBe(GatewayCloseCodes.DisallowedIntents);
  });

  it("refuses a RESUME of a session that asked for it with 4014", async () => {
    const { bot } = await botInGuilds(app, 1);
    await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["MESSAGE_CONTENT"], true);
    const { client, ready } = await identified(first, bot.token, { intents: withContent });
    const created = await client.dispatch("GUILD_CREATE");
    client.terminate();
    const sessionId = (ready.d as GatewayReadyDispatchData).session_id;
    // The server has seen the connection end: the session waits for a RESUME (a live one would be closed at once).
    await until(async () => (await app.db.gatewaySession.findUnique({ where: { id: sessionId } }))?.closedAt != null);
    await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["MESSAGE_CONTENT"], false);

    const back = await second.connect();
    await back.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
    back.send({ op: GatewayOpcodes.Resume, d: { token: bot.token, session_id: sessionId, seq: created.s } });
    expect(await back.closeCode()).toBe(GatewayCloseCodes.DisallowedIntents);
    expect(await isStored(sessionId)).toBe(false);
  });
});
