import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ChannelType } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createUser, issueBearerToken } from "~/server/applications/application.service.ts";
import { setRateLimitsLifted } from "~/server/applications/rate-limits.ts";
import { createGuildChannel } from "~/server/channels/channel.service.ts";
import { createDb, type Db } from "~/server/db/client.ts";
import { createRuntime } from "~/server/runtime/runtime.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import { createGuild, USER_MAX_GUILDS } from "~/server/guilds/guild.service.ts";
import { addGuildMember } from "~/server/members/member.service.ts";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { createInvite } from "~/server/invites/invite.service.ts";
import { LOBBY_IDLE_TIMEOUT_MAX_SECONDS } from "~/server/lobbies/lobby.schema.ts";
import { createLobby } from "~/server/lobbies/lobby.service.ts";
import { createRole } from "~/server/roles/role.service.ts";
import { createWebhook } from "~/server/webhooks/webhook.service.ts";
import { createBootstrapCredentials } from "~/server/seed/bootstrap.ts";
import {
  measure,
  printTable,
  reportAims,
  ROOT,
  startServer,
  stopServer,
  summarizeProfile,
  CONNECTIONS,
  type AutocannonRequest,
  type Row,
  type Server,
} from "./measure.ts";

// `npm run bench [-- --duration 10 --only get,patch --guilds 1000 --profile]`: the production
// server (the built dist/server.mjs with package.json's node flags, REST only) on a fresh
// SQLite database, side by side with a bare node:http "floor" that answers GET /guilds/{id}
// after one indexed read from an in-memory copy of the same database. Writes the table to
// bench/out/ as JSON too.

const AIMS = { getShareOfFloor: 0.2, patchPerSecond: 2000, webhookPerSecond: 2000, lobbyMessagePerSecond: 2000, peakRssMb: 250 };
// High enough that the limiter never throttles the bench, while every request still goes through it.
const RATE_LIMIT_SCALE = "100000";
const OUT_DIR = join(ROOT, "bench", "out");
const SCENARIOS = ["get", "channels", "roles", "member", "members", "invite", "patch", "role", "webhook", "lobby", "lobbymessage", "many"] as const;
/** Requests held to the same share of the floor as GET /guilds/{id}. */
const READS_AT_FLOOR_SHARE = [
  "GET /guilds/{id}",
  "GET /guilds/{id}/members/{user}",
  "GET /guilds/{id}/members?limit=100",
  "GET /invites/{code}?with_counts=true",
  "GET /lobbies/{id}",
];
const BENCH_MEMBERS = 250;
/** Players in the bench's lobby, as a match of a team game holds. */
const LOBBY_PLAYERS = 8;
/** A 200-character message, as a deploy notice or an alert posts. */
const WEBHOOK_CONTENT = "Deploy of api-gateway finished on production: 14 services updated, 0 failed, 3 migrations applied. ".repeat(3).slice(0, 200);
type Scenario = (typeof SCENARIOS)[number];

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    duration: { type: "string", default: "10" },
    profile: { type: "boolean", default: false },
    only: { type: "string" },
    guilds: { type: "string", default: "1000" },
  },
});
const duration = Number(flags.duration);
const guildCount = Number(flags.guilds);
const only = flags.only ? flags.only.split(",").map((s) => s.trim().toLowerCase()) : [...SCENARIOS];
for (const name of only) if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`--only takes a comma list of ${SCENARIOS.join(", ")}`);
const runs = (scenario: Scenario) => only.includes(scenario);

const packageJson = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { config: { node_flags: string } };
const NODE_FLAGS = packageJson.config.node_flags.split(/\s+/).filter(Boolean);

/** A guild with the roles and channels a small community has, owned by the bench's bot. */
async function seedBenchGuild(db: Db) {
  const credentials = await createBootstrapCredentials(db);
  const ctx = { db, actor: { kind: "bot" as const, userId: credentials.bot_user_id, applicationId: credentials.application_id, scopes: new Set<string>() } };
  for (let i = 0; i < 8; i++) await createRole(ctx, { guildId: credentials.guild_id, body: { name: `Role ${i}`, color: 0x3498db + i } });
  for (let i = 0; i < 8; i++) await createGuildChannel(ctx, { guildId: credentials.guild_id, body: { name: `channel-${i}`, type: ChannelType.GuildText } });
  const roles = (await db.role.findMany({ where: { guildId: credentials.guild_id, position: { gt: 0 } }, select: { id: true } })).map((role) => role.id);
  const memberIds: string[] = [];
  for (let i = 0; i < BENCH_MEMBERS; i++) {
    const user = await createUser(db, { username: `member_${i}`, globalName: `Member ${i}` });
    await addGuildMember({ db, actor: null }, { guildId: credentials.guild_id, userId: user.id, roleIds: roles.filter((_, r) => (i + r) % 3 === 0) });
    memberIds.push(user.id);
  }
  // Listing members needs the privileged intent, as for any bot.
  await setApprovedIntents({ db, actor: null }, credentials.application_id, ["GUILD_MEMBERS"], true);
  const channel = (await db.channel.findFirst({ where: { guildId: credentials.guild_id, type: ChannelType.GuildText }, select: { id: true } }))!;
  const invite = await createInvite(ctx, { channelId: channel.id, body: { max_age: 0 } });
  const webhook = await createWebhook(ctx, { channelId: channel.id, body: { name: "Bench deploys" } });
  // A match lobby of the bench's application, with players on Bearer tokens of the game.
  const players = memberIds.slice(0, LOBBY_PLAYERS);
  const lobby = await createLobby(ctx, {
    members: players.map((id, i) => ({ id, metadata: { team: i % 2 ? "red" : "blue" } })),
    metadata: { map: "harbor", mode: "ranked" },
    idle_timeout_seconds: LOBBY_IDLE_TIMEOUT_MAX_SECONDS,
  });
  const playerToken = await issueBearerToken(db, { userId: players[0]!, applicationId: credentials.application_id, scopes: ["identify", "sdk.social_layer"] });
  // A game in production: the development limits of spec 8 are lifted.
  await setRateLimitsLifted({ db, actor: null }, credentials.application_id, true);
  return {
    ...credentials,
    memberId: memberIds[Math.floor(BENCH_MEMBERS / 2)]!,
    inviteCode: invite.code,
    webhookPath: `/api/v10/webhooks/${webhook.id}/${webhook.token}`,
    lobbyPath: `/api/v10/lobbies/${lobby.id}`,
    playerToken,
  };
}

/** `count` more guilds, each owned by a user and joined by the bot, for the cache-full run. */
async function seedManyGuilds(db: Db, botUserId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const owner = await createUser(db, { username: `owner_${ids.length}` });
    const ctx = { db, actor: dashboardActor(owner.id) };
    for (let i = 0; i < USER_MAX_GUILDS && ids.length < count; i++) {
      const guild = await createGuild(ctx, { name: `Many ${ids.length}` });
      await addGuildMember({ db, actor: null }, { guildId: guild.id, userId: botUserId });
      ids.push(guild.id);
    }
  }
  return ids;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "guildhall-bench-"));
  const dbFile = join(dir, "bench.db");
  const url = `file:${dbFile}`;
  const servers: Server[] = [];
  try {
    console.log("Building the server (npm run build:server) and seeding a fresh database…");
    execFileSync("npm", ["run", "-s", "build:server"], { cwd: ROOT, stdio: "inherit" });
    await applyMigrations(url);
    // Seeding runs changes through the services, which deliver their events through a runtime.
    const seeding = createRuntime({ db: createDb(url), redisUrl: null });
    const db = seeding.db;
    const credentials = await seedBenchGuild(db);
    const manyGuilds = runs("many") ? await seedManyGuilds(db, credentials.bot_user_id, guildCount) : [];
    await seeding.close();
    const guildPath = `/api/v10/guilds/${credentials.guild_id}`;
    const auth = { authorization: `Bot ${credentials.bot_token}` };

    const serverFlags = [...NODE_FLAGS];
    if (flags.profile) {
      mkdirSync(OUT_DIR, { recursive: true });
      // A profile is written only on a normal exit, so SIGTERM must exit normally.
      serverFlags.push("--cpu-prof", `--cpu-prof-dir=${OUT_DIR}`, "--import", 'data:text/javascript,process.on("SIGTERM",()=>process.exit(0))');
    }
    const profilesBefore = new Set(flags.profile ? readdirSync(OUT_DIR) : []);

    console.log(
      `Guildhall REST bench: ${CONNECTIONS} connections, 2 s warm-up + ${duration} s per run; ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(2)}.`,
    );
    console.log(
      `Server: node ${serverFlags.join(" ")} dist/server.mjs, GUILDHALL_REST_ONLY=1, RATE_LIMIT_SCALE=${RATE_LIMIT_SCALE} (the limiter runs on every request but does not throttle).`,
    );
    if (flags.profile) console.log(`CPU profiling the server into ${OUT_DIR}: figures are lower than without --profile.`);

    const server = await startServer("guildhall", [...serverFlags, "dist/server.mjs"], { DATABASE_URL: url, GUILDHALL_REST_ONLY: "1", RATE_LIMIT_SCALE });
    servers.push(server);
    const probe = await fetch(`http://127.0.0.1:${server.port}${guildPath}`, { headers: auth });
    if (probe.status !== 200) throw new Error(`GET ${guildPath} answered ${probe.status}: ${await probe.text()}`);
    const bodyFile = join(dir, "guild.json");
    writeFileSync(bodyFile, Buffer.from(await probe.arrayBuffer()));

    // Both run side by side, each measured alone and one right after the other, so that
    // other work on the machine weighs on both alike.
    const floor = await startServer("floor", ["--import", "tsx", "bench/floor-server.ts"], { DATABASE_FILE: dbFile, BODY_FILE: bodyFile });
    servers.push(floor);
    const floorRow: Row = { server: "floor", request: "GET /guilds/{id}", ...(await measure(floor, duration, { path: guildPath, headers: auth })) };

    const rows: Row[] = [];
    const row = async (scenario: Scenario, request: string, options: Parameters<typeof measure>[2]) => {
      if (runs(scenario)) rows.push({ server: "guildhall", request, ...(await measure(server, duration, options)) });
    };
    await row("get", "GET /guilds/{id}", { path: guildPath, headers: auth });
    await row("channels", "GET /guilds/{id}/channels", { path: `${guildPath}/channels`, headers: auth });
    await row("roles", "GET /guilds/{id}/roles", { path: `${guildPath}/roles`, headers: auth });
    await row("member", "GET /guilds/{id}/members/{user}", { path: `${guildPath}/members/${credentials.memberId}`, headers: auth });
    await row("members", "GET /guilds/{id}/members?limit=100", { path: `${guildPath}/members?limit=100`, headers: auth });
    // Public: invite pages and clients resolve invites without credentials.
    await row("invite", "GET /invites/{code}?with_counts=true", { path: `/api/v10/invites/${credentials.inviteCode}?with_counts=true`, headers: {} });
    const json = { ...auth, "content-type": "application/json" };
    await row("patch", "PATCH /guilds/{id}", {
      path: guildPath,
      headers: json,
      requests: ["Bench Guild A", "Bench Guild B"].map((name) => ({ method: "PATCH", body: JSON.stringify({ name }) })),
    });
    const roleRequests: AutocannonRequest[] = [
      {
        method: "POST",
        path: `${guildPath}/roles`,
        body: JSON.stringify({ name: "Bench role" }),
        onResponse: (status, body, context) => {
          context.roleId = status === 200 ? (JSON.parse(body) as { id: string }).id : "0";
        },
      },
      { method: "DELETE", setupRequest: (request, context) => ({ ...request, path: `${guildPath}/roles/${String(context.roleId)}` }) },
    ];
    await row("role", "POST+DELETE /guilds/{id}/roles", { path: guildPath, headers: json, requests: roleRequests });
    // Webhooks post without credentials: the token in the path is the credential.
    await row("webhook", "POST /webhooks/{id}/{token}?wait=true", {
      path: `${credentials.webhookPath}?wait=true`,
      headers: { "content-type": "application/json" },
      requests: [{ method: "POST", body: JSON.stringify({ content: WEBHOOK_CONTENT }) }],
    });
    await row("lobby", "GET /lobbies/{id}", { path: credentials.lobbyPath, headers: auth });
    await row("lobbymessage", "POST /lobbies/{id}/messages", {
      path: `${credentials.lobbyPath}/messages`,
      headers: { authorization: `Bearer ${credentials.playerToken}`, "content-type": "application/json" },
      requests: [{ method: "POST", body: JSON.stringify({ content: "gg, rematch?", metadata: { emote: "wave" } }) }],
    });
    let next = 0;
    const manyRequests: AutocannonRequest[] = [
      { setupRequest: (request) => ({ ...request, path: `/api/v10/guilds/${manyGuilds[next++ % manyGuilds.length]}` }) },
    ];
    await row("many", `GET /guilds/{id} x ${manyGuilds.length} guilds`, { path: guildPath, headers: auth, requests: manyRequests });
    await stopServer(server);
    await stopServer(floor);

    console.log("");
    printTable([...rows, floorRow]);
    const reads = rows.filter((r) => READS_AT_FLOOR_SHARE.includes(r.request));
    const patch = rows.find((r) => r.request === "PATCH /guilds/{id}");
    const webhook = rows.find((r) => r.request === "POST /webhooks/{id}/{token}?wait=true");
    const lobbyMessage = rows.find((r) => r.request === "POST /lobbies/{id}/messages");
    const peakRss = Math.max(...rows.map((r) => r.peakRssMb ?? 0));
    const clean = rows.every(({ result }) => result.errors + result.timeouts + result.non2xx === 0);
    const aims = [
      ...reads.map((read) => ({
        aim: `${read.request} at ${AIMS.getShareOfFloor * 100}% of the floor or better`,
        value: `${((read.result.requests.average / floorRow.result.requests.average) * 100).toFixed(1)}%`,
        met: read.result.requests.average >= AIMS.getShareOfFloor * floorRow.result.requests.average,
      })),
      ...(patch
        ? [
            {
              aim: `PATCH /guilds/{id} at ${AIMS.patchPerSecond} req/s or better`,
              value: `${patch.result.requests.average.toFixed(0)} req/s`,
              met: patch.result.requests.average >= AIMS.patchPerSecond,
            },
          ]
        : []),
      ...(webhook
        ? [
            {
              aim: `POST /webhooks/{id}/{token}?wait=true at ${AIMS.webhookPerSecond} req/s or better`,
              value: `${webhook.result.requests.average.toFixed(0)} req/s`,
              met: webhook.result.requests.average >= AIMS.webhookPerSecond,
            },
          ]
        : []),
      ...(lobbyMessage
        ? [
            {
              aim: `POST /lobbies/{id}/messages at ${AIMS.lobbyMessagePerSecond} req/s or better`,
              value: `${lobbyMessage.result.requests.average.toFixed(0)} req/s`,
              met: lobbyMessage.result.requests.average >= AIMS.lobbyMessagePerSecond,
            },
          ]
        : []),
      { aim: "no errors and no non-2xx answers", value: clean ? "none" : "some", met: clean },
      { aim: `server peak RSS below ${AIMS.peakRssMb} MB`, value: `${peakRss.toFixed(0)} MB`, met: peakRss < AIMS.peakRssMb },
    ];
    reportAims(aims);

    mkdirSync(OUT_DIR, { recursive: true });
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, loadAverage: loadavg()[0] },
      config: {
        connections: CONNECTIONS,
        durationSeconds: duration,
        nodeFlags: serverFlags,
        rateLimitScale: Number(RATE_LIMIT_SCALE),
        guildsInManyRun: manyGuilds.length,
      },
      rows: [...rows, floorRow].map((r) => ({
        server: r.server,
        request: r.request,
        requestsPerSecond: r.result.requests.average,
        p50Ms: r.result.latency.p50,
        p99Ms: r.result.latency.p99,
        errors: r.result.errors + r.result.timeouts,
        non2xx: r.result.non2xx,
        cpuMicrosPerRequest: r.cpuMicrosPerRequest,
        peakRssMb: r.peakRssMb,
      })),
      aims,
    };
    const file = join(OUT_DIR, `rest-bench-${report.date.replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nWrote ${file}`);

    if (flags.profile) {
      // Node writes one profile per thread; the main thread's is the first (…0.001…), the others are loader threads.
      const written = readdirSync(OUT_DIR)
        .filter((f) => f.endsWith(".cpuprofile") && !profilesBefore.has(f))
        .sort();
      const main = written.find((f) => f.endsWith(".0.001.cpuprofile")) ?? written[0];
      if (main) summarizeProfile(join(OUT_DIR, main));
    }
  } finally {
    for (const server of servers) await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
