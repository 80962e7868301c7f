import { mkdtempSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PrivilegedIntent } from "~/server/applications/application.schema.ts";
import { createDb } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import type { Gateway } from "~/server/gateway/gateway.ts";
import { joinGuild } from "~/server/members/membership.ts";
import type { Runtime } from "~/server/runtime/runtime.ts";
import { createApiServer } from "~/server/serving/api-server.ts";
import { startServing } from "~/server/serving/serving.ts";
import { createBootstrapCredentials, type BootstrapCredentials } from "~/server/seed/bootstrap.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import type { Twin } from "./twin.ts";
import { createTwinDatabase } from "./twin-database.ts";

/** What a started twin prints (`npm run twin`) and startTwin() answers: where it is and fresh credentials. */
export type TwinInfo = BootstrapCredentials & {
  /** The API root client libraries take (they add /v10 themselves). */
  base_url: string;
  gateway_url: string;
  /** The twin namespace, and the admin token it asks for (`Authorization: Twin <token>`). */
  twin_url: string;
  twin_token: string;
  cdn_url: string;
  /** How long the start took, in milliseconds. */
  started_in_ms: number;
};

export type TwinServer = { info: TwinInfo; runtime: Runtime; twin: Twin; gateway: Gateway; stop(): Promise<void> };

export type TwinServerOptions = {
  /** A free one by default. */
  port?: number;
  host?: string;
  /** The admin token; a random one by default. */
  token?: string;
  /**
   * A migrated database to run on instead of a new SQLite file (the test suite's PostgreSQL run);
   * the twin neither makes nor deletes it.
   */
  databaseUrl?: string;
  /** The bot's privileged intents, switched on in their limited form; all three by default. */
  intents?: readonly PrivilegedIntent[];
};

const ALL_PRIVILEGED: readonly PrivilegedIntent[] = ["GUILD_MEMBERS", "PRESENCE", "MESSAGE_CONTENT"];

/**
 * A throwaway Guildhall in test mode for a test suite: REST, CDN and the gateway (no
 * dashboard) on a new SQLite database in a temporary folder, with background work, on a free
 * port of loopback. Its credentials: an application with its bot (every privileged intent),
 * a user with a bearer token who is a member of the bot's guild. stop() closes everything and
 * deletes the folder. One per process: the clock and the configuration are the process's.
 */
export async function startTwinServer(options: TwinServerOptions = {}): Promise<TwinServer> {
  const started = performance.now();
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort(host));
  const origin = `http://${host}:${port}`;
  // Links the service hands out (the gateway's address, CDN URLs, the OAuth2 issuer) name this twin.
  process.env.PUBLIC_BASE_URL = origin;
  const folder = options.databaseUrl ? null : mkdtempSync(join(tmpdir(), "guildhall-twin-"));
  const db = createDb(folder ? createTwinDatabase(join(folder, "twin.db")) : options.databaseUrl);
  const serving = startServing({ db, redisUrl: null, twin: { token: options.token }, gateway: { publicBaseUrl: origin, trustedProxies: null } });
  // Both asked for above, so both are there.
  const { runtime } = serving;
  const twin = serving.twin!;
  const gateway = serving.gateway!;
  const credentials = await createBootstrapCredentials(db, { intents: options.intents ?? ALL_PRIVILEGED });
  // The user is a member of the bot's guild, so a test can act as them there at once.
  const guild = await stateCache(db).guild(credentials.guild_id);
  if (guild) await runChange({ db, actor: null }, (change) => joinGuild(change, { guild: guild.guild, userId: credentials.user_id }));
  const api = createApiServer(serving, { pages: notServed, trustedProxies: null });
  await new Promise<void>((resolve, reject) => {
    api.server.once("error", reject);
    api.server.listen(port, host, () => resolve());
  });
  const info: TwinInfo = {
    base_url: `${origin}/api`,
    gateway_url: `ws://${host}:${port}/gateway`,
    twin_url: `${origin}/api/v10/__twin`,
    twin_token: twin.token,
    cdn_url: `${origin}/cdn`,
    ...credentials,
    started_in_ms: Math.round(performance.now() - started),
  };
  let stopping: Promise<void> | null = null;
  return {
    info,
    runtime,
    twin,
    gateway,
    stop() {
      stopping ??= api.stop(2000).finally(() => folder && rmSync(folder, { recursive: true, force: true }));
      return stopping;
    },
  };
}

function notServed(_req: unknown, res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader("content-type", "text/plain");
  res.end("Not found: a test twin serves the REST API, the CDN and the gateway only.\n");
}

/** A port nobody listens on now (the OS picks it), so the public URL is known before the runtime starts. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
