// Every opcode a client may send, sent payloads its shape takes and broken ones (wrong types,
// huge values, deep nesting, prototype-named keys, text and numbers at the edges, frames that
// are not JSON), over a real WebSocket. Each frame gets the platform's answer: the command is
// taken and the connection stays open, or it closes with the code the protocol names for what
// was wrong (4001, 4002, 4004, 4005, 4010, 4013, 4014), never 4000 (a failure inside the
// gateway), and the gateway logs no error (the kit fails a test whose gateway logged one).
// FUZZ_SEED and FUZZ_RUNS as in the REST route fuzz test.
import { GatewayCloseCodes, GatewayIntentBits as I, GatewayOpcodes } from "discord-api-types/v10";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { addMember } from "~/test/factories.ts";
import { botInGuilds, identified, useGatewayServer, type GatewayClient } from "~/test/gateway-kit.ts";
import { lobbyKit } from "~/test/lobby-kit.ts";
import { brokenJson, NASTY_JSON, validArbitrary } from "~/test/zod-arbitrary.ts";
import { useTestApp } from "~/test/test-app.ts";
import { testProvider } from "~/test/test-db.ts";
import { GATEWAY_COMMANDS } from "./command-table.ts";
import { KNOWN_INTENTS, ZFrameSchema, ZHeartbeatSchema, ZIdentifySchema, ZResumeSchema } from "./commands.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

const app = useTestApp();
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: {
    sessionStart: { ...DEFAULT_SESSION_START_LIMITS, total: 1_000_000, identifyIntervalMs: 0 },
    commands: { count: 1_000_000, windowMs: 60_000 },
  },
});
// The same file runs on both databases: PostgreSQL takes half the values from other seeds, so
// the two runs together try more values than either alone, for half the time again.
const ON_POSTGRES = testProvider() === "postgresql";
const BASE_SEED = process.env.FUZZ_SEED === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20261125);
const SEED = BASE_SEED + (ON_POSTGRES ? 1_000_003 : 0);
const RUNS = Number(process.env.FUZZ_RUNS ?? (ON_POSTGRES ? 15 : 30));
const tally = { frames: 0, taken: 0, closed: 0 };

afterAll(() => {
  console.log(`gateway command fuzzing (seed ${BASE_SEED}): ${tally.frames} frames, ${tally.taken} taken, ${tally.closed} closed the connection`);
});

/** What a frame should do: stay open (answered by this many heartbeat ACKs), be answered with READY or op 9, or close with one of these codes. */
type Expected = { open: number } | { ready: true } | { invalidSession: true } | { close: readonly number[] };

const PAYLOAD_MAX = 4096;
// ws's own limit (gateway.ts): a larger frame is refused by the WebSocket layer with 1009, and
// the gateway drops the socket at once, so the client may see its close frame or none (1006).
const WS_FRAME_MAX = 64 * 1024;
const closeWith = (...codes: number[]): Expected => ({ close: codes });

/** What the gateway reads before any command: the frame's size, its JSON and its envelope. */
function envelopeOf(text: string): { op: number; d: unknown } | Expected {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > WS_FRAME_MAX) return closeWith(1009, 1006);
  if (bytes > PAYLOAD_MAX) return closeWith(GatewayCloseCodes.DecodeError);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return closeWith(GatewayCloseCodes.DecodeError);
  }
  const frame = ZFrameSchema.safeParse(json);
  return frame.success ? { op: frame.data.op, d: frame.data.d } : closeWith(GatewayCloseCodes.DecodeError);
}

/** On an identified session: the protocol's answer to `text`. */
function expectedOnSession(text: string): Expected {
  const frame = envelopeOf(text);
  if (!("op" in frame)) return frame;
  if (frame.op === GatewayOpcodes.Heartbeat) return ZHeartbeatSchema.safeParse(frame.d).success ? { open: 2 } : closeWith(GatewayCloseCodes.DecodeError);
  if (frame.op === GatewayOpcodes.Identify || frame.op === GatewayOpcodes.Resume) return closeWith(GatewayCloseCodes.AlreadyAuthenticated);
  const command = GATEWAY_COMMANDS[frame.op as GatewayOpcodes];
  if (!command) return closeWith(GatewayCloseCodes.UnknownOpcode);
  return command.shape.safeParse(frame.d).success ? { open: 1 } : closeWith(GatewayCloseCodes.DecodeError);
}

type World = Awaited<ReturnType<typeof buildWorld>>;

/** A bot (GUILD_MEMBERS approved, no other privileged intent) in a guild with members, and a player of its game in the guild. */
async function buildWorld() {
  const { owner, bot, guildIds } = await botInGuilds(app, 1);
  const guildId = guildIds[0]!;
  await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["GUILD_MEMBERS"], true);
  const player = await lobbyKit(app).player(bot.application.id);
  const unscoped = await lobbyKit(app).player(bot.application.id, ["identify"]);
  await addMember(app.db, guildId, player.user.id);
  const channels = await app.db.channel.findMany({ where: { guildId }, select: { id: true } });
  const ids = [guildId, ...channels.map((channel) => channel.id), owner.user.id, bot.user.id, player.user.id];
  return { bot, player, unscoped, guildId, ids };
}

let world: World;
beforeAll(async () => {
  world = await buildWorld();
}, 60_000);

/** The bot's session, as the fuzzed commands are sent on: every intent it may ask for. */
async function session(): Promise<GatewayClient> {
  const { client } = await identified(server, world.bot.token, { intents: I.Guilds | I.GuildMembers | I.GuildVoiceStates });
  return client;
}

/** Resolves with the close code, or null once `acks` heartbeat ACKs came (the connection read the frame and stayed open). */
async function settle(client: GatewayClient, acks: number): Promise<number | null> {
  let left = acks;
  try {
    await client.waitFor((frame) => frame.op === GatewayOpcodes.HeartbeatAck && --left === 0, "heartbeat ACKs");
    return null;
  } catch (error) {
    if (client.ws.readyState === client.ws.OPEN) throw error;
    return (await client.closed).code;
  }
}

/** Frames for one opcode: its `d` as its shape takes it, or with one piece broken. */
function framesFor(op: number, shape: z.ZodType): fc.Arbitrary<string> {
  const valid = validArbitrary(shape, { ids: world.ids });
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((d) => JSON.stringify({ op, d })) },
    { weight: 3, arbitrary: brokenJson(valid).map((d) => `{"op":${op},"d":${d}}`) },
  );
}

const brief = (text: string) => (text.length <= 200 ? text : `${text.slice(0, 80)}…${text.slice(-80)} (${text.length} chars)`);

/** Sends every frame on the bot's session (a new one after each close) and lists what differed from the protocol. */
async function problemsOn(frames: readonly (string | Buffer)[], expectedOf: (frame: string | Buffer) => Expected): Promise<string[]> {
  const problems: string[] = [];
  let client = await session();
  // A command that fails after its ACK closes the connection during the next frame: both are named.
  let previous = "nothing";
  for (const frame of frames) {
    const expected = expectedOf(frame);
    if (typeof frame === "string") client.send(frame);
    else client.ws.send(frame, { binary: true });
    tally.frames += 1;
    // The ACKs show the frame was read: for one that closes, the close comes first.
    client.send({ op: GatewayOpcodes.Heartbeat, d: null });
    const closed = await settle(client, "open" in expected ? expected.open : 1);
    const what = typeof frame === "string" ? brief(frame) : `a binary frame of ${frame.length} bytes`;
    if (closed === null) tally.taken += 1;
    else tally.closed += 1;
    if ("close" in expected && (closed === null || !expected.close.includes(closed)))
      problems.push(`${what}: expected a close with ${expected.close.join(" or ")}, got ${closed ?? "the connection open"} (the frame before: ${previous})`);
    if ("open" in expected && closed !== null) problems.push(`${what}: expected it taken, got a close with ${closed} (the frame before: ${previous})`);
    previous = what;
    if (closed !== null) client = await session();
  }
  client.terminate();
  return problems;
}

describe("client commands never fail the gateway", () => {
  const commands: [string, number, () => z.ZodType][] = [
    ["HEARTBEAT", GatewayOpcodes.Heartbeat, () => ZHeartbeatSchema],
    ...Object.entries(GATEWAY_COMMANDS).map(([op, command]): [string, number, () => z.ZodType] => [
      GatewayOpcodes[Number(op)]!,
      Number(op),
      () => command.shape,
    ]),
  ];

  commands.forEach(([name, op, shape], index) => {
    it(`op ${op} (${name})`, { timeout: 180_000 }, async () => {
      const frames = fc.sample(framesFor(op, shape()), { numRuns: RUNS, seed: SEED + index });
      // Every broken value once as the whole `d`.
      for (const d of NASTY_JSON) frames.push(`{"op":${op},"d":${d}}`);
      expect(await problemsOn(frames, (frame) => expectedOnSession(frame as string))).toEqual([]);
    });
  });

  it("frames that are not commands: not JSON, not an envelope, unknown or non-integer opcodes, too large, binary", { timeout: 180_000 }, async () => {
    const opcodes = fc.oneof(fc.integer({ min: -3, max: 60 }), fc.constantFrom(2 ** 31, 2 ** 53, -(2 ** 31)));
    const sampled = fc.sample(
      fc.oneof(
        fc.tuple(opcodes, fc.jsonValue({ maxDepth: 2 })).map(([op, d]) => JSON.stringify({ op, d })),
        fc.constantFrom(...NASTY_JSON),
        fc.string({ maxLength: 40 }),
      ),
      { numRuns: RUNS * 2, seed: SEED - 1 },
    );
    const fixed: [string | Buffer, Expected][] = [
      [Buffer.from('{"op":1,"d":null}'), closeWith(GatewayCloseCodes.DecodeError)],
      ["", closeWith(GatewayCloseCodes.DecodeError)],
      ["{}", closeWith(GatewayCloseCodes.DecodeError)],
      ['{"op":"1","d":null}', closeWith(GatewayCloseCodes.DecodeError)],
      ['{"op":1.5,"d":null}', closeWith(GatewayCloseCodes.DecodeError)],
      ['{"op":1e400,"d":null}', closeWith(GatewayCloseCodes.DecodeError)],
      ['{"op":-1,"d":null}', closeWith(GatewayCloseCodes.UnknownOpcode)],
      ['{"op":7,"d":null}', closeWith(GatewayCloseCodes.UnknownOpcode)],
      ['{"op":1,"d":null,"s":"x"}', closeWith(GatewayCloseCodes.DecodeError)],
      ['{"__proto__":{"op":2},"op":1,"d":null}', { open: 2 }],
      ['{"op":8,"d":{"guild_id":"1","query":"","limit":0,"__proto__":{"user_ids":["1"]}}}', { open: 1 }],
      ["[".repeat(2000) + "]".repeat(2000), closeWith(GatewayCloseCodes.DecodeError)],
      [JSON.stringify({ op: 1, d: null, pad: "x".repeat(PAYLOAD_MAX) }), closeWith(GatewayCloseCodes.DecodeError)],
      [JSON.stringify({ op: 1, d: null, pad: "x".repeat(WS_FRAME_MAX) }), closeWith(1009, 1006)],
    ];
    const expectations = new Map<string | Buffer, Expected>(fixed);
    // The fixed frames hold the protocol's answers; the oracle must agree with them.
    for (const [frame, expected] of fixed) if (typeof frame === "string") expect(expectedOnSession(frame), brief(frame)).toEqual(expected);
    const frames = [...fixed.map(([frame]) => frame), ...sampled];
    expect(await problemsOn(frames, (frame) => expectations.get(frame) ?? expectedOnSession(frame as string))).toEqual([]);
  });
});

describe("IDENTIFY and RESUME never fail the gateway", () => {
  /** IDENTIFY's answer on a new connection, in the platform's order: shape, token, shard, intents, privileged intents. */
  function expectedIdentify(text: string): Expected {
    const frame = envelopeOf(text);
    if (!("op" in frame)) return frame;
    const command = ZIdentifySchema.safeParse(frame.d);
    if (!command.success) return closeWith(GatewayCloseCodes.DecodeError);
    const { token, intents, shard } = command.data;
    if (/^Bearer\s+/i.test(token))
      return token.replace(/^Bearer\s+/i, "") === world.player.token ? { ready: true } : closeWith(GatewayCloseCodes.AuthenticationFailed);
    if (token.replace(/^Bot\s+/i, "") !== world.bot.token) return closeWith(GatewayCloseCodes.AuthenticationFailed);
    const [id, count] = shard ?? [0, 1];
    if (count < 1 || count > 65_536 || id < 0 || id >= count) return closeWith(GatewayCloseCodes.InvalidShard);
    if ((intents & ~KNOWN_INTENTS) !== 0) return closeWith(GatewayCloseCodes.InvalidIntents);
    if ((intents & (I.GuildPresences | I.MessageContent)) !== 0) return closeWith(GatewayCloseCodes.DisallowedIntents);
    return { ready: true };
  }

  /** RESUME's answer on a new connection: no session by the names it gives is resumable, so a right token hears op 9. */
  function expectedResume(text: string): Expected {
    const frame = envelopeOf(text);
    if (!("op" in frame)) return frame;
    const command = ZResumeSchema.safeParse(frame.d);
    if (!command.success) return closeWith(GatewayCloseCodes.DecodeError);
    const { token } = command.data;
    const isPlayer = /^Bearer\s+/i.test(token) && token.replace(/^Bearer\s+/i, "") === world.player.token;
    return isPlayer || token.replace(/^Bot\s+/i, "") === world.bot.token ? { invalidSession: true } : closeWith(GatewayCloseCodes.AuthenticationFailed);
  }

  /** Tokens worth sending: the bot's (bare or with Bot), the player's as Bearer or bare, one without sdk.social_layer, made-up ones. */
  function tokens(): fc.Arbitrary<string> {
    const { bot, player, unscoped } = world;
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(bot.token, `Bot ${bot.token}`, `bot  ${bot.token}`, `Bearer ${player.token}`) },
      { weight: 1, arbitrary: fc.constantFrom(player.token, `Bot ${player.token}`, `Bearer ${unscoped.token}`, `Bearer ${bot.token}`, `Bearer `, "Bot") },
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
    );
  }

  /** Frames for IDENTIFY or RESUME: shapes the schema takes with a token worth sending, and broken ones. */
  function handshakeFrames(op: number, shape: z.ZodType, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<string> {
    const valid = fc
      .tuple(validArbitrary(shape, { ids: world.ids }), fc.record(fields))
      .map(([d, overrides]) => ({ ...(d as object), ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)) }));
    return fc.oneof(
      { weight: 3, arbitrary: valid.map((d) => JSON.stringify({ op, d })) },
      { weight: 2, arbitrary: brokenJson(valid).map((d) => `{"op":${op},"d":${d}}`) },
    );
  }

  /** Sends each frame first on a new connection and lists what differed from `expectedOf`. */
  async function problemsOfHandshakes(frames: readonly string[], expectedOf: (frame: string) => Expected): Promise<string[]> {
    const problems: string[] = [];
    for (const frame of frames) {
      const expected = expectedOf(frame);
      const client = await server.connect();
      await client.waitFor((each) => each.op === GatewayOpcodes.Hello, "HELLO");
      client.send(frame);
      tally.frames += 1;
      let got: string;
      try {
        const answer = await client.waitFor(
          (each) => (each.op === GatewayOpcodes.Dispatch && each.t === "READY") || each.op === GatewayOpcodes.InvalidSession,
          "READY or op 9",
        );
        got = answer.op === GatewayOpcodes.InvalidSession ? "op 9" : "READY";
      } catch (error) {
        if (client.ws.readyState === client.ws.OPEN) throw error;
        got = `a close with ${(await client.closed).code}`;
      }
      client.terminate();
      if (got.startsWith("a close")) tally.closed += 1;
      else tally.taken += 1;
      const want =
        "ready" in expected ? "READY" : "invalidSession" in expected ? "op 9" : "close" in expected ? expected.close.map((code) => `a close with ${code}`) : [];
      if (!(Array.isArray(want) ? want.includes(got) : want === got)) problems.push(`${brief(frame)}: expected ${[want].flat().join(" or ")}, got ${got}`);
    }
    return problems;
  }

  it("IDENTIFY (op 2)", { timeout: 240_000 }, async () => {
    const intents = fc.oneof(
      fc.constantFrom(0, I.Guilds, I.Guilds | I.GuildMembers, I.GuildPresences, I.MessageContent, KNOWN_INTENTS, 1 << 30, 2 ** 31 - 1),
      fc.constant(undefined),
    );
    const shard = fc.oneof(fc.constantFrom([0, 1], [1, 2], [0, 0], [2, 2], [-1, 1], [0, 65_536], [0, 65_537]), fc.constant(undefined));
    const frames = fc.sample(handshakeFrames(GatewayOpcodes.Identify, ZIdentifySchema, { token: tokens(), intents, shard }), {
      numRuns: RUNS * 2,
      seed: SEED + 100,
    });
    expect(await problemsOfHandshakes(frames, expectedIdentify)).toEqual([]);
  });

  it("RESUME (op 6)", { timeout: 240_000 }, async () => {
    const frames = fc.sample(handshakeFrames(GatewayOpcodes.Resume, ZResumeSchema, { token: tokens() }), { numRuns: RUNS, seed: SEED + 101 });
    expect(await problemsOfHandshakes(frames, expectedResume)).toEqual([]);
  });
});
