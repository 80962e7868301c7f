import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PermissionFlagsBits } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializePermissions } from "~/server/permissions/permissions.ts";
import { addMember, makeBot, makeGuild } from "~/test/factories.ts";
import { startServerProcess, type ServerProcess } from "~/test/server-process.ts";
import { useTestApp } from "~/test/test-app.ts";

// Two real server processes (server.ts, REST only) on the test database and Redis, started
// the way `npm start` starts them: a change made through one is refused on the other once
// its event arrives, and rate-limit buckets are shared.

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
// Cached entries have no lifetime: only an event drops them, so without delivery the stale
// answer would last forever. A ceiling this wide tells the two apart on a loaded machine;
// how fast delivery is, is the bench's business, not a test's.
const PROPAGATION_MS = 10_000;

const app = useTestApp();
const instances: ServerProcess[] = [];

const startInstance = () => startServerProcess({ DATABASE_URL: app.url, REDIS_URL, RATE_LIMIT_SCALE: "1" });

function call(instance: ServerProcess, method: string, path: string, token: string, body?: unknown) {
  return fetch(`${instance.origin}/api/v10${path}`, {
    method,
    headers: { authorization: `Bot ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Milliseconds until `request` answers `status`, polling; fails past the limit. */
async function msUntil(status: number, request: () => Promise<Response>): Promise<number> {
  const start = performance.now();
  for (;;) {
    const res = await request();
    const elapsed = performance.now() - start;
    if (res.status === status) return elapsed;
    if (elapsed > PROPAGATION_MS) throw new Error(`still ${res.status} after ${elapsed.toFixed(0)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("two instances behind one load balancer", () => {
  beforeAll(async () => {
    instances.push(...(await Promise.all([startInstance(), startInstance()])));
  }, 60_000);
  afterAll(() => Promise.all(instances.map((instance) => instance.stop())));

  it("refuses on B a permission removed through A, once A's event reaches it", async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const owner = await makeBot(app.db);
    const manager = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const role = await (
      await call(a, "POST", `/guilds/${guild.id}/roles`, owner.token, { name: "Managers", permissions: serializePermissions(PermissionFlagsBits.ManageGuild) })
    ).json();
    await addMember(app.db, guild.id, manager.user.id, [role.id]);
    expect((await call(b, "PATCH", `/guilds/${guild.id}`, manager.token, { name: "Allowed on B" })).status).toBe(200);
    // That change dropped B's copy; reading again makes B hold the guild and the manager's access.
    expect((await call(b, "GET", `/guilds/${guild.id}`, manager.token)).status).toBe(200);

    expect((await call(a, "PATCH", `/guilds/${guild.id}/roles/${role.id}`, owner.token, { permissions: "0" })).status).toBe(200);
    const elapsed = await msUntil(403, () => call(b, "PATCH", `/guilds/${guild.id}`, manager.token, { name: "Refused on B" }));
    expect(elapsed).toBeLessThan(PROPAGATION_MS);
    expect((await call(b, "GET", `/guilds/${guild.id}`, owner.token).then((r) => r.json())).name).toBe("Allowed on B");
  });

  it("refuses on both a token revoked by the operator CLI, once its event reaches them", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    for (const instance of instances) expect((await call(instance, "GET", `/guilds/${guild.id}`, owner.token)).status).toBe(200);
    await promisify(execFile)(process.execPath, ["--import", "tsx", "src/cli/index.ts", "token", "revoke", owner.token], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: app.url, REDIS_URL },
    });
    for (const instance of instances) expect(await msUntil(401, () => call(instance, "GET", `/guilds/${guild.id}`, owner.token))).toBeLessThan(PROPAGATION_MS);
  });

  it("shares rate-limit buckets", async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const first = await call(a, "GET", `/guilds/${guild.id}`, owner.token);
    const limit = Number(first.headers.get("x-ratelimit-limit"));
    for (let i = 1; i < limit; i++) await call(a, "GET", `/guilds/${guild.id}`, owner.token);
    const fromB = await call(b, "GET", `/guilds/${guild.id}`, owner.token);
    expect(fromB.status).toBe(429);
    expect(fromB.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});
