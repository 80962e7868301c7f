import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createDb } from "~/server/db/client.ts";
import { applyMigrations } from "~/server/db/migrate.ts";
import { createRuntime } from "~/server/runtime/create-runtime.ts";
import { createBenchDatabase, isBenchProvider, type BenchProvider } from "./bench-database.ts";
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
import { restAims, withFloorRatios, writeReport } from "./rest-aims.ts";
import { seedBenchGuild, seedManyGuilds } from "./rest-seed.ts";

// The REST bench (see rest.bench.ts, which runs it): the production server (the built
// dist/server.mjs with package.json's node flags, REST only) on a fresh database, side by side
// with two bare node:http floors on the same data: one answers GET /guilds/{id} after one
// indexed read from an in-memory copy (SQLite only), the other stores a message and its outbox
// event in one transaction on a copy of the database. Writes the table to bench/out/ as JSON too.

// High enough that the limiter never throttles the bench, while every request still goes through it.
const RATE_LIMIT_SCALE = "100000";
const OUT_DIR = join(ROOT, "bench", "out");
const SCENARIOS = ["get", "channels", "roles", "member", "members", "invite", "lobby", "patch", "webhook", "message", "role", "lobbymessage", "many"] as const;
/** The writes held to the write floor; what runs on PostgreSQL unless --only says otherwise. */
const WRITE_FLOOR_SCENARIOS = ["patch", "webhook", "message"];
const READ_SCENARIOS = ["get", "channels", "roles", "member", "members", "invite", "lobby", "many"];
/** A 200-character message, as a deploy notice or an alert posts. */
const MESSAGE_CONTENT = "Deploy of api-gateway finished on production: 14 services updated, 0 failed, 3 migrations applied. ".repeat(3).slice(0, 200);
type Scenario = (typeof SCENARIOS)[number];

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    duration: { type: "string", default: "10" },
    profile: { type: "boolean", default: false },
    only: { type: "string" },
    guilds: { type: "string", default: "1000" },
    database: { type: "string", default: "sqlite" },
  },
});
const duration = Number(flags.duration);
const guildCount = Number(flags.guilds);
if (!isBenchProvider(flags.database)) throw new Error("--database takes sqlite or postgres");
const provider: BenchProvider = flags.database;
const only = flags.only ? flags.only.split(",").map((s) => s.trim().toLowerCase()) : provider === "postgres" ? WRITE_FLOOR_SCENARIOS : [...SCENARIOS];
for (const name of only) if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`--only takes a comma list of ${SCENARIOS.join(", ")}`);
const runs = (scenario: Scenario) => only.includes(scenario);
// The read floor reads an in-memory SQLite copy, so it stands for reads on SQLite only.
const readFloorRuns = provider === "sqlite" && only.some((s) => READ_SCENARIOS.includes(s));

const packageJson = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { config: { node_flags: string } };
const NODE_FLAGS = packageJson.config.node_flags.split(/\s+/).filter(Boolean);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "guildhall-bench-"));
  const database = await createBenchDatabase(provider, dir);
  const servers: Server[] = [];
  try {
    console.log(`Building the server (npm run build:server) and seeding a fresh ${provider} database…`);
    execFileSync("npm", ["run", "-s", "build:server"], { cwd: ROOT, stdio: "inherit" });
    await applyMigrations(database.url);
    // Seeding runs changes through the services, which deliver their events through a runtime.
    const seeding = createRuntime({ db: createDb(database.url), redisUrl: null });
    const credentials = await seedBenchGuild(seeding.db);
    const manyGuilds = runs("many") ? await seedManyGuilds(seeding.db, credentials.bot_user_id, guildCount) : [];
    await seeding.close();
    const floorUrl = await database.copyForFloor();
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
      `Guildhall REST bench on ${provider}: ${CONNECTIONS} connections, 2 s warm-up + ${duration} s per run; ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(2)}.`,
    );
    console.log(
      `Server: node ${serverFlags.join(" ")} dist/server.mjs, GUILDHALL_REST_ONLY=1, RATE_LIMIT_SCALE=${RATE_LIMIT_SCALE} (the limiter runs on every request but does not throttle).`,
    );
    if (flags.profile) console.log(`CPU profiling the server into ${OUT_DIR}: figures are lower than without --profile.`);

    const server = await startServer("guildhall", [...serverFlags, "dist/server.mjs"], {
      DATABASE_URL: database.url,
      GUILDHALL_REST_ONLY: "1",
      RATE_LIMIT_SCALE,
    });
    servers.push(server);
    const probe = await fetch(`http://127.0.0.1:${server.port}${guildPath}`, { headers: auth });
    if (probe.status !== 200) throw new Error(`GET ${guildPath} answered ${probe.status}: ${await probe.text()}`);

    // Guildhall and each floor run side by side, each measured alone and one right after the
    // other, so that other work on the machine weighs on both alike.
    const rows: Row[] = [];
    const floors: { read?: Row; write?: Row } = {};
    if (readFloorRuns) {
      const bodyFile = join(dir, "guild.json");
      writeFileSync(bodyFile, Buffer.from(await probe.arrayBuffer()));
      const floor = await startServer("floor", ["--import", "tsx", "bench/floor-server.ts"], {
        DATABASE_FILE: database.url.slice("file:".length),
        BODY_FILE: bodyFile,
      });
      servers.push(floor);
      floors.read = { server: "floor", request: "GET /guilds/{id}", ...(await measure(floor, duration, { path: guildPath, headers: auth })) };
      await stopServer(floor);
    }
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
    await row("lobby", "GET /lobbies/{id}", { path: credentials.lobbyPath, headers: auth });

    // Webhooks post without credentials: the token in the path is the credential.
    const webhookExecute = {
      path: `${credentials.webhookPath}?wait=true`,
      headers: { "content-type": "application/json" },
      requests: [{ method: "POST", body: JSON.stringify({ content: MESSAGE_CONTENT }) }],
    };
    if (only.some((s) => WRITE_FLOOR_SCENARIOS.includes(s))) {
      const floor = await startServer("write floor", ["--import", "tsx", "bench/write-floor-server.ts"], {
        DATABASE_URL: floorUrl,
        CHANNEL_ID: credentials.channelId,
        GUILD_ID: credentials.guild_id,
        WEBHOOK_ID: credentials.webhookId,
      });
      servers.push(floor);
      // The floor does the same work for each of the writes it stands for; measured with the webhook's request.
      floors.write = { server: "write floor", request: "POST a message and its event", ...(await measure(floor, duration, webhookExecute)) };
      await stopServer(floor);
    }
    const json = { ...auth, "content-type": "application/json" };
    await row("patch", "PATCH /guilds/{id}", {
      path: guildPath,
      headers: json,
      requests: ["The guild of the bench's community.", "The bench's community, described again."].map((description) => ({
        method: "PATCH",
        body: JSON.stringify({ description }),
      })),
    });
    await row("webhook", "POST /webhooks/{id}/{token}?wait=true", webhookExecute);
    await row("message", "POST /channels/{id}/messages", {
      path: `/api/v10/channels/${credentials.channelId}/messages`,
      headers: json,
      requests: [{ method: "POST", body: JSON.stringify({ content: MESSAGE_CONTENT }) }],
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

    console.log("");
    const measured = withFloorRatios(rows, floors);
    const floorRows = [floors.read, floors.write].filter((floor) => floor !== undefined);
    const table = [...measured, ...floorRows];
    printTable(table);
    const aims = restAims(measured, floorRows);
    reportAims(aims);
    const config = {
      database: provider,
      durationSeconds: duration,
      nodeFlags: serverFlags,
      rateLimitScale: Number(RATE_LIMIT_SCALE),
      guildsInManyRun: manyGuilds.length,
    };
    console.log(`\nWrote ${writeReport(OUT_DIR, provider === "sqlite" ? "rest-bench" : `rest-bench-${provider}`, config, table, aims)}`);

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
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
