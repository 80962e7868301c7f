import { ChannelType } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TwinServer } from "~/server/twin/twin-server.ts";
import { runCliInProcess, type CliRun } from "~/test/cli-in-process.ts";
import { startTestTwin } from "~/test/twin-kit.ts";
import { testProvider } from "~/test/test-db.ts";

// Every twin control from the CLI, against a running twin: each command finds the twin through
// GUILDHALL_TWIN_URL and GUILDHALL_TWIN_TOKEN, as a person's would.

let twin: TwinServer;

function cli(args: string[]): Promise<CliRun> {
  return runCliInProcess(["twin", ...args, "--json"], { GUILDHALL_TWIN_URL: twin.info.twin_url, GUILDHALL_TWIN_TOKEN: twin.info.twin_token });
}

/** Runs a twin command that must succeed; answers its JSON. */
async function twinCli<T = any>(...args: string[]): Promise<T> {
  const run = await cli(args);
  expect(run.stderr, `stderr of twin ${args.join(" ")}`).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** The REST API as the twin's bot. */
async function asBot<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${twin.info.base_url}/v10${path}`, {
    method,
    headers: { authorization: `Bot ${twin.info.bot_token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (response.status === 204 ? undefined : await response.json()) as T };
}

beforeAll(async () => {
  twin = await startTestTwin();
});
afterAll(() => twin?.stop());

describe("the twin from the CLI", () => {
  it("shows, moves, sets and freezes the clock", async () => {
    expect(await twinCli("status")).toMatchObject({ test_mode: true });
    const before = Date.parse((await twinCli("clock")).now);
    const advanced = await twinCli("clock", "advance", "2h");
    expect(Date.parse(advanced.clock.now) - before).toBeGreaterThanOrEqual(2 * 3600_000);
    expect((await twinCli("clock", "freeze")).clock.frozen).toBe(true);
    const later = new Date(Date.parse(advanced.clock.now) + 86_400_000).toISOString();
    expect((await twinCli("clock", "set", later)).clock).toMatchObject({ now: later, frozen: true });
    expect((await twinCli("clock", "unfreeze")).clock.frozen).toBe(false);
    const refused = await cli(["clock", "set", "2001-01-01T00:00:00Z"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("only moves forward");
  });

  // Snapshots need SQLite (the PostgreSQL run of the suite refuses them: twin-snapshot.integration-test.ts).
  it.runIf(testProvider() === "sqlite")("snapshots, lists, restores and deletes", async () => {
    const snapshot = await twinCli("snapshot", "--name", "before");
    expect(await asBot("PATCH", `/guilds/${twin.info.guild_id}`, { name: "Renamed after the snapshot" })).toMatchObject({ status: 200 });
    expect((await twinCli<{ id: string }[]>("snapshot", "list")).map((listed) => listed.id)).toContain(snapshot.id);
    await twinCli("snapshot", "restore", snapshot.id);
    expect((await asBot("GET", `/guilds/${twin.info.guild_id}`)).body.name).not.toBe("Renamed after the snapshot");
    await twinCli("snapshot", "delete", snapshot.id);
    const gone = await cli(["snapshot", "restore", snapshot.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("Unknown snapshot");
  });

  it("adds, lists, removes and clears REST faults, and acts on gateway sessions", async () => {
    const rule = await twinCli("fault", "add", "--method", "GET", "--route", "/users/@me", "--status", "503", "--times", "1");
    expect((await asBot("GET", "/users/@me")).status).toBe(503);
    expect((await asBot("GET", "/users/@me")).status).toBe(200);
    expect(await twinCli("fault", "list")).toEqual([expect.objectContaining({ id: rule.id, hits: 1, remaining: 0 })]);
    await twinCli("fault", "add", "--route", "/users/@me", "--rate-limit", "2", "--global");
    const limited = await asBot("GET", "/users/@me");
    expect(limited).toMatchObject({ status: 429, body: { retry_after: 2, global: true } });
    expect(await cli(["fault", "remove", rule.id])).toMatchObject({ code: 0, stderr: "" });
    expect(await cli(["fault", "clear"])).toMatchObject({ code: 0, stderr: "" });
    expect(await twinCli("fault", "list")).toEqual([]);
    expect((await asBot("GET", "/users/@me")).status).toBe(200);
    // No bot is connected: the fault reaches no session, and says so.
    expect(await twinCli("gateway", "reconnect")).toEqual({ sessions: 0 });
    expect(await twinCli("gateway", "close", "--code", "4000")).toEqual({ sessions: 0 });
  });

  it("acts as people: a new user joins, speaks, goes online, enters voice, accepts an invite and leaves", async () => {
    const { user } = await twinCli("user", "create", "--username", "cli.person");
    const guild = twin.info.guild_id;
    await twinCli("member", "add", "--guild", guild, "--user", user.id);
    const channels = (await asBot<{ id: string; type: number }[]>("GET", `/guilds/${guild}/channels`)).body;
    const text = channels.find((channel) => channel.type === ChannelType.GuildText)!;
    const said = await twinCli("say", "--channel", text.id, "--user", user.id, "--content", "hello from the CLI");
    expect(said).toMatchObject({ content: "hello from the CLI", author: { id: user.id } });
    expect(await twinCli("presence", "--user", user.id, "--status", "idle", "--activity", "Chess")).toMatchObject({ status: "idle" });
    const voice = (await asBot("POST", `/guilds/${guild}/channels`, { name: "Lounge", type: ChannelType.GuildVoice })).body;
    expect(await twinCli("voice", "--guild", guild, "--user", user.id, "--channel", voice.id)).toMatchObject({ channel_id: voice.id, user_id: user.id });
    const invite = (await asBot("POST", `/channels/${text.id}/invites`, { max_age: 0 })).body;
    const other = (await twinCli("user", "create", "--username", "cli.guest")).user;
    expect(await twinCli("invite", "accept", invite.code, "--user", other.id)).toMatchObject({ code: invite.code });
    expect((await asBot("GET", `/guilds/${guild}/members/${other.id}`)).status).toBe(200);
    expect((await cli(["member", "remove", "--guild", guild, "--user", other.id])).code).toBe(0);
    expect((await asBot("GET", `/guilds/${guild}/members/${other.id}`)).status).toBe(404);
  });
});
