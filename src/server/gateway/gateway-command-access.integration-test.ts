// Every opcode a client may send, by every kind of connection: one that has not identified,
// a bot's session, and a game client's session (a player's Bearer token). Each gets what the
// table below says: its answer, silence (the command is taken, or refused without an answer,
// as the platform refuses), or a close with the platform's code. A new client command is
// walked the day it is added to the command table.
import { ChannelType, GatewayCloseCodes, GatewayDispatchEvents, GatewayOpcodes } from "discord-api-types/v10";
import { beforeAll, describe, expect, it } from "vitest";
import { addMember } from "~/test/factories.ts";
import { botInGuilds, identified, useGatewayServer, type Frame, type GatewayClient } from "~/test/gateway-kit.ts";
import { lobbyKit } from "~/test/lobby-kit.ts";
import { bot as botAuth } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { GATEWAY_COMMANDS } from "./command-table.ts";
import { createEventRouter } from "./event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "./session-start-limit.ts";

const app = useTestApp();
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 }, commands: { count: 10_000, windowMs: 60_000 } },
});
const lobbies = lobbyKit(app);

type World = Awaited<ReturnType<typeof buildWorld>>;
type Kind = "unidentified" | "bot" | "player";
/** What a connection gets for a command: an ACK, a dispatch of this type, nothing (it stays open), or a close. */
type Outcome = "ack" | "silent" | { answer: string } | { close: number };

/**
 * A guild with a voice channel, holding a bot and a player of the bot's own game (so a
 * refusal of the player's commands does not rest on the player being outside the guild),
 * and a lobby the player is in, whose messages reach the player's session.
 */
async function buildWorld() {
  const { owner, bot, guildIds } = await botInGuilds(app, 1);
  const guildId = guildIds[0]!;
  const channels = (await app.as(botAuth(owner.token)).get(`/guilds/${guildId}/channels`)).body as { id: string; type: number }[];
  const voice = channels.find((channel) => channel.type === ChannelType.GuildVoice)!.id;
  const player = await lobbies.player(bot.application.id);
  await addMember(app.db, guildId, player.user.id);
  const game = app.as(botAuth(bot.token));
  const lobby = await lobbies.lobby(game, { members: [{ id: player.user.id }] });
  return { bot, guildId, voice, player, game, lobby: lobby.id };
}

/** Each client opcode's payload, valid for it, naming the world's guild. */
function payloads(world: World): Record<number, unknown> {
  return {
    [GatewayOpcodes.Heartbeat]: null,
    [GatewayOpcodes.Identify]: { token: world.bot.token, intents: 0, properties: { os: "linux", browser: "t", device: "t" } },
    [GatewayOpcodes.Resume]: { token: world.bot.token, session_id: "a".repeat(32), seq: 0 },
    [GatewayOpcodes.PresenceUpdate]: { since: null, activities: [], status: "idle", afk: false },
    [GatewayOpcodes.VoiceStateUpdate]: { guild_id: world.guildId, channel_id: world.voice, self_mute: false, self_deaf: false },
    [GatewayOpcodes.RequestGuildMembers]: { guild_id: world.guildId, user_ids: [world.player.user.id], nonce: "matrix" },
    [GatewayOpcodes.RequestSoundboardSounds]: { guild_ids: [world.guildId] },
    [GatewayOpcodes.RequestChannelInfo]: { guild_id: world.guildId, fields: ["status", "voice_start_time"] },
  };
}

const NOT_AUTHENTICATED = { close: GatewayCloseCodes.NotAuthenticated };
const ALREADY = { close: GatewayCloseCodes.AlreadyAuthenticated };

/**
 * The matrix. Before IDENTIFY only heartbeats are taken (IDENTIFY and RESUME are the
 * handshake's own tests). A game client's session hears lobby events and sets its player's
 * presence; the guild commands are a bot's, and a player's get no answer and change nothing.
 */
const MATRIX: Record<number, Record<Kind, Outcome | null>> = {
  [GatewayOpcodes.Heartbeat]: { unidentified: "ack", bot: "ack", player: "ack" },
  [GatewayOpcodes.Identify]: { unidentified: null, bot: ALREADY, player: ALREADY },
  [GatewayOpcodes.Resume]: { unidentified: null, bot: ALREADY, player: ALREADY },
  [GatewayOpcodes.PresenceUpdate]: { unidentified: NOT_AUTHENTICATED, bot: "silent", player: "silent" },
  [GatewayOpcodes.VoiceStateUpdate]: { unidentified: NOT_AUTHENTICATED, bot: { answer: GatewayDispatchEvents.VoiceServerUpdate }, player: "silent" },
  [GatewayOpcodes.RequestGuildMembers]: { unidentified: NOT_AUTHENTICATED, bot: { answer: GatewayDispatchEvents.GuildMembersChunk }, player: "silent" },
  [GatewayOpcodes.RequestSoundboardSounds]: { unidentified: NOT_AUTHENTICATED, bot: "silent", player: "silent" },
  [GatewayOpcodes.RequestChannelInfo]: { unidentified: NOT_AUTHENTICATED, bot: { answer: GatewayDispatchEvents.ChannelInfo }, player: "silent" },
};

/** Opcodes the gateway sends but never takes, and numbers no opcode has: 4001 from anyone. */
const NOT_CLIENT_OPCODES = [
  GatewayOpcodes.Dispatch,
  5,
  GatewayOpcodes.Reconnect,
  GatewayOpcodes.InvalidSession,
  GatewayOpcodes.Hello,
  GatewayOpcodes.HeartbeatAck,
  12,
  40,
  99,
];

let world: World;
let barriers = 0;
beforeAll(async () => {
  world = await buildWorld();
}, 60_000);

async function connectAs(kind: Kind): Promise<GatewayClient> {
  if (kind === "bot") return (await identified(server, world.bot.token)).client;
  if (kind === "player") return (await identified(server, `Bearer ${world.player.token}`)).client;
  const client = await server.connect();
  await client.waitFor((frame) => frame.op === GatewayOpcodes.Hello, "HELLO");
  return client;
}

const isDispatchAfterStart = (frame: Frame) => frame.op === GatewayOpcodes.Dispatch && frame.t !== "READY" && frame.t !== "GUILD_CREATE";

/**
 * Sends `op` and reads what came of it: a close, or the frames it was answered with before a
 * barrier. The barrier is a heartbeat's ACK (the command was read), then for a game client a
 * lobby update routed to it (later than any answer an event could carry), and for a bot a
 * members chunk (another command's answer from the database).
 */
async function outcomeOf(kind: Kind, op: number, d: unknown, expected: Outcome): Promise<{ closed: number | null; answers: string[]; acks: number }> {
  const client = await connectAs(kind);
  client.send({ op, d });
  client.send({ op: GatewayOpcodes.Heartbeat, d: null });
  const frames = new Set<Frame>();
  const collect = (until: (frame: Frame) => boolean) => client.waitFor((frame) => (frames.add(frame), until(frame)));
  // A heartbeat command is answered with an ACK of its own, before the barrier's.
  let acks = op === GatewayOpcodes.Heartbeat ? 2 : 1;
  try {
    await collect((frame) => frame.op === GatewayOpcodes.HeartbeatAck && --acks === 0);
    // An answer that writes first (joining voice) may come after the barrier's read: it is awaited itself.
    if (typeof expected === "object" && "answer" in expected) await collect((frame) => frame.t === expected.answer);
    if (kind === "player") {
      const barrier = String(++barriers);
      expect((await world.game.patch(`/lobbies/${world.lobby}`, { metadata: { barrier } })).status).toBe(200);
      await collect((frame) => frame.t === "LOBBY_UPDATE" && (frame.d as { metadata: { barrier?: string } | null }).metadata?.barrier === barrier);
    }
    if (kind === "bot") {
      client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: world.guildId, user_ids: [world.bot.user.id], nonce: "barrier" } });
      await collect((frame) => frame.t === GatewayDispatchEvents.GuildMembersChunk && (frame.d as { nonce?: string }).nonce === "barrier");
    }
  } catch (error) {
    // Closed: its code says why. Open and still waiting is the test's own failure.
    if (client.ws.readyState === client.ws.OPEN) throw error;
  }
  const closed = client.ws.readyState === client.ws.OPEN ? null : (await client.closed).code;
  client.terminate();
  const answers = [...frames]
    .filter(isDispatchAfterStart)
    .filter((frame) => !(frame.t === "LOBBY_UPDATE" || (frame.d as { nonce?: string } | null)?.nonce === "barrier"))
    .map((frame) => frame.t!);
  return { closed, answers, acks: [...frames].filter((frame) => frame.op === GatewayOpcodes.HeartbeatAck).length };
}

function problemOf(expected: Outcome, got: Awaited<ReturnType<typeof outcomeOf>>, op: number): string | null {
  const seen = got.closed !== null ? `closed ${got.closed}` : `answers [${got.answers.join(", ")}], ${got.acks} ACKs`;
  if (typeof expected === "object" && "close" in expected) return got.closed === expected.close ? null : `expected close ${expected.close}, saw ${seen}`;
  if (got.closed !== null) return `expected it open, saw ${seen}`;
  const acks = expected === "ack" && op === GatewayOpcodes.Heartbeat ? 2 : 1;
  const answers = typeof expected === "object" ? [expected.answer] : [];
  return got.acks >= acks && JSON.stringify(got.answers) === JSON.stringify(answers) ? null : `expected ${JSON.stringify(expected)}, saw ${seen}`;
}

describe("who may send which gateway command", () => {
  it("lists every opcode of the command table", () => {
    const listed = Object.keys(MATRIX).map(Number);
    for (const op of Object.keys(GATEWAY_COMMANDS).map(Number)) expect(listed, `opcode ${op} is in the command table but not the matrix`).toContain(op);
  });

  for (const kind of ["unidentified", "bot", "player"] as const) {
    it(
      `answers a connection that is ${kind === "unidentified" ? "not identified" : `a ${kind}'s session`} as the matrix says`,
      { timeout: 120_000 },
      async () => {
        const problems: string[] = [];
        for (const [op, outcomes] of Object.entries(MATRIX)) {
          const expected = outcomes[kind];
          if (expected === null) continue;
          const problem = problemOf(expected, await outcomeOf(kind, Number(op), payloads(world)[Number(op)], expected), Number(op));
          if (problem) problems.push(`op ${op}: ${problem}`);
        }
        for (const op of NOT_CLIENT_OPCODES) {
          const unknown = { close: GatewayCloseCodes.UnknownOpcode };
          const problem = problemOf(unknown, await outcomeOf(kind, op, null, unknown), op);
          if (problem) problems.push(`op ${op}: ${problem}`);
        }
        expect(problems).toEqual([]);
        // What the voice command left: the bot is connected; a game client's command changed nothing.
        if (kind !== "unidentified") {
          const states = await app.db.voiceState.count({ where: { userId: kind === "bot" ? world.bot.user.id : world.player.user.id } });
          expect(states).toBe(kind === "bot" ? 1 : 0);
        }
      },
    );
  }
});
