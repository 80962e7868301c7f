import { GatewayIntentBits, GatewayOpcodes, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botInGuilds, GatewayClient } from "~/test/gateway-kit.ts";
import { startServerProcess, type ServerProcess } from "~/test/server-process.ts";
import { useTestApp } from "~/test/test-app.ts";

// Two real server processes (server.ts, REST only) on the test database and Redis, as `npm
// start` runs them: a session on one hears changes made through the other, resumes on the
// other, and is told to reconnect (op 7) when its instance stops.

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

const app = useTestApp();
const instances: ServerProcess[] = [];

const startInstance = () => startServerProcess({ DATABASE_URL: app.url, REDIS_URL });

function patchGuild(instance: ServerProcess, guildId: string, token: string, name: string) {
  return fetch(`http://127.0.0.1:${instance.port}/api/v10/guilds/${guildId}`, {
    method: "PATCH",
    headers: { authorization: `Bot ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
}

async function connect(instance: ServerProcess): Promise<GatewayClient> {
  const client = await GatewayClient.connect(`ws://127.0.0.1:${instance.port}/gateway?v=10&encoding=json`, false);
  await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
  return client;
}

describe("the gateway on two instances", () => {
  beforeAll(async () => {
    instances.push(...(await Promise.all([startInstance(), startInstance()])));
  }, 60_000);
  afterAll(() => Promise.all(instances.map((instance) => instance.stop())));

  it("a session on B hears a change made through A, resumes on A after a drop, and hears op 7 when A stops", async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const { bot, owner, guildIds } = await botInGuilds(app, 1);
    const guildId = guildIds[0]!;

    const onB = await connect(b);
    onB.identify({ token: bot.token, intents: GatewayIntentBits.Guilds });
    const ready = await onB.dispatch("READY");
    expect((ready.d as GatewayReadyDispatchData).resume_gateway_url).toBe(`ws://127.0.0.1:${b.port}/gateway`);
    await onB.dispatch("GUILD_CREATE");
    expect((await patchGuild(a, guildId, owner.token, "Through A")).status).toBe(200);
    const heard = await onB.dispatch("GUILD_UPDATE");
    expect(heard.d).toMatchObject({ id: guildId, name: "Through A" });

    onB.terminate();
    await onB.closed;
    expect((await patchGuild(b, guildId, owner.token, "While away")).status).toBe(200);
    const onA = await connect(a);
    onA.send({ op: GatewayOpcodes.Resume, d: { token: bot.token, session_id: (ready.d as GatewayReadyDispatchData).session_id, seq: heard.s } });
    expect(await onA.next()).toMatchObject({ t: "GUILD_UPDATE", d: { name: "While away" } });
    expect(await onA.next()).toMatchObject({ t: "RESUMED" });

    a.process.kill("SIGTERM");
    expect(await onA.waitFor((frame) => frame.op === GatewayOpcodes.Reconnect, "RECONNECT")).toMatchObject({ d: null });
    onA.ws.close(4200);
    const exitCode = await new Promise<number | null>((resolve) => a.process.once("exit", resolve));
    expect(exitCode).toBe(0);
  });
});
