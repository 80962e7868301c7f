import { GatewayDispatchEvents } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhook } from "~/server/webhooks/webhook.service.ts";
import { makeBot, makeGuild } from "~/test/factories.ts";
import { startServerProcess, type ServerProcess } from "~/test/server-process.ts";
import { useTestApp } from "~/test/test-app.ts";

// A change answered 2xx is committed: the server process is killed with SIGKILL while
// messages are being written, and after a restart on the same database every message it
// acknowledged is there, with its MESSAGE_CREATE in the outbox.

/** Requests in flight at once, half webhook executions and half bot messages. */
const CONCURRENCY = 12;
/** Acknowledged messages before the kill: enough that many commits went through the write path. */
const ACKNOWLEDGED_BEFORE_KILL = 200;

const app = useTestApp();
const servers: ServerProcess[] = [];
let botToken: string;
let guildId: string;
let channelId: string;
let webhookPath: string;

const startServer = async () => {
  const server = await startServerProcess({ DATABASE_URL: app.url, RATE_LIMIT_SCALE: "1000" });
  servers.push(server);
  return server;
};

/** Posts one message, through the webhook (`wait=true`) or as the bot; answers the response. */
function postMessage(server: ServerProcess, viaWebhook: boolean, content: string): Promise<Response> {
  const [path, authorization] = viaWebhook ? [`${webhookPath}?wait=true`, {}] : [`/channels/${channelId}/messages`, { authorization: `Bot ${botToken}` }];
  return fetch(`${server.origin}/api/v10${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...authorization },
    body: JSON.stringify({ content }),
  });
}

type Load = { acknowledged: string[]; inFlightAtKill: number; unexpected: string[] };

/**
 * Keeps CONCURRENCY writes in flight until `threshold` of them were answered 2xx, then kills
 * the server at once, the rest still in flight. Those fail, as a crash makes them fail; any
 * failure before the kill ends the load early and is answered in `unexpected`.
 */
async function writeUntilKilled(server: ServerProcess, threshold: number): Promise<Load> {
  const acknowledged: string[] = [];
  const unexpected: string[] = [];
  let inFlight = 0;
  let killed = false;
  let stop!: () => void;
  const stopping = new Promise<void>((resolve) => (stop = resolve));
  async function worker(index: number): Promise<void> {
    for (let n = 0; !killed; n++) {
      inFlight++;
      try {
        const res = await postMessage(server, index % 2 === 0, `worker ${index} message ${n}`);
        if (res.ok) acknowledged.push(((await res.json()) as { id: string }).id);
        else if (!killed) unexpected.push(`${res.status} ${await res.text()}`);
      } catch (error) {
        if (!killed) unexpected.push(String(error));
      } finally {
        inFlight--;
      }
      if (acknowledged.length >= threshold || unexpected.length > 0) stop();
    }
  }
  const workers = Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => worker(index)));
  await stopping;
  const inFlightAtKill = inFlight;
  killed = true;
  await server.kill();
  await workers;
  return { acknowledged, inFlightAtKill, unexpected };
}

describe("a crash of the server process", () => {
  beforeAll(async () => {
    const owner = await makeBot(app.db);
    botToken = owner.token;
    const guild = await makeGuild(app.db, owner.actor);
    guildId = guild.id;
    channelId = (await app.db.guild.findUniqueOrThrow({ where: { id: guildId }, select: { systemChannelId: true } })).systemChannelId!;
    const hook = await createWebhook({ db: app.db, actor: owner.actor }, { channelId, body: { name: "Load" } });
    webhookPath = `/webhooks/${hook.id}/${hook.token}`;
  });
  afterAll(() => Promise.all(servers.map((server) => server.kill())));

  it("loses no message it answered 2xx, nor its event", { timeout: 120_000 }, async () => {
    const started = performance.now();
    const { acknowledged, inFlightAtKill, unexpected } = await writeUntilKilled(await startServer(), ACKNOWLEDGED_BEFORE_KILL);
    expect(unexpected, "failures before the kill").toEqual([]);
    const killedAt = performance.now();
    const restarted = await startServer();
    const stored = await app.db.message.findMany({ where: { channelId }, select: { id: true } });
    console.log(
      `crash durability: ${acknowledged.length} messages acknowledged (${stored.length} committed) in ${(killedAt - started).toFixed(0)} ms, ${inFlightAtKill} requests in flight at SIGKILL, restarted in ${(performance.now() - killedAt).toFixed(0)} ms`,
    );
    expect(acknowledged.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
    expect(inFlightAtKill).toBeGreaterThan(0);

    const missing: string[] = [];
    for (const id of acknowledged) {
      const res = await fetch(`${restarted.origin}/api/v10/channels/${channelId}/messages/${id}`, { headers: { authorization: `Bot ${botToken}` } });
      if (res.status !== 200) missing.push(`${id} (${res.status})`);
    }
    expect(missing, "acknowledged messages the restarted server does not have").toEqual([]);

    // Every message committed, acknowledged or not, was committed with its event, and no event without its message.
    const events = await app.db.event.findMany({ where: { guildId, type: GatewayDispatchEvents.MessageCreate }, select: { data: true } });
    const eventIds = events.map((event) => (JSON.parse(event.data) as { id: string }).id);
    expect(new Set(eventIds).size).toBe(eventIds.length);
    expect([...eventIds].sort()).toEqual(stored.map((message) => message.id).sort());
    expect(eventIds).toEqual(expect.arrayContaining(acknowledged));

    for (const viaWebhook of [true, false]) {
      const res = await postMessage(restarted, viaWebhook, "after the restart");
      expect(res.status).toBe(200);
      const { id } = (await res.json()) as { id: string };
      expect(await app.db.message.count({ where: { id } })).toBe(1);
    }
  });
});
