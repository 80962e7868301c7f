import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBot, makeGuild } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";
import type { StoredEvent } from "./event-bus.ts";

// Without Redis a server hears other processes' changes through the outbox.

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const app = useTestApp();
let stop: () => void;

beforeAll(() => {
  stop = app.runtime.events.hearOtherProcesses(50);
});
afterAll(() => stop());

describe("hearing other processes without Redis", () => {
  it("refuses a token the operator CLI revoked", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    expect((await app.as(bot(owner.token)).get(`/guilds/${guild.id}`)).status).toBe(200);
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: app.url, REDIS_URL: "" };
    await promisify(execFile)(process.execPath, ["--import", "tsx", "src/cli/index.ts", "token", "revoke", owner.token], { cwd: ROOT, env });
    await until(async () => (await app.as(bot(owner.token)).get(`/guilds/${guild.id}`)).status === 401);
  });

  it("delivers this process's own events once", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const heard: StoredEvent[] = [];
    const unsubscribe = app.runtime.events.subscribe((event) => event.guildId === guild.id && heard.push(event));
    await app.as(bot(owner.token)).patch(`/guilds/${guild.id}`, { name: "Heard once" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    unsubscribe();
    expect(heard.map((e) => e.type)).toEqual(["GUILD_UPDATE", "GUILD_AUDIT_LOG_ENTRY_CREATE"]);
  });
});
