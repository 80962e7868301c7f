import { performance } from "node:perf_hooks";
import { GatewayDispatchEvents, GatewayIntentBits, GatewayOpcodes, type GatewayGuildMembersChunkDispatchData } from "discord-api-types/v10";
import WebSocket from "ws";
import { createApplication, createUser } from "~/server/applications/application.service.ts";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import type { Db } from "~/server/db/client.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { seedMembers } from "~/test/factories.ts";

// The member-chunk part of the gateway bench: one identified session with GUILD_MEMBERS asks
// for every member of a guild of 10,000 (op 8, query "", limit 0); the time from sending the
// request to receiving its last GUILD_MEMBERS_CHUNK. The floor (bench/chunk-floor-server.ts)
// answers the same request over a bare `ws` server with the same members read in one go.

export const CHUNK_GUILD_MEMBERS = 10_000;
const CEILING_MS = 30_000;

/** A bot (GUILD_MEMBERS approved) owning a guild of CHUNK_GUILD_MEMBERS members, itself included. */
export async function seedChunkGuild(db: Db): Promise<{ guildId: string; botToken: string }> {
  const owner = await createUser(db, { username: "chunks_owner" });
  const { application, botToken } = await createApplication(db, { name: "Bench Chunks", ownerId: owner.id });
  const actor = { kind: "bot" as const, userId: application.botUserId, applicationId: application.id, scopes: new Set<string>() };
  const guild = await createGuild({ db, actor }, { name: "Member Chunks Bench" });
  await setApprovedIntents({ db, actor: null }, application.id, ["GUILD_MEMBERS"], true);
  const people = Array.from({ length: CHUNK_GUILD_MEMBERS - 1 }, (_, i) => ({ username: `member_${i}`, nick: i % 3 === 0 ? `Nick ${i}` : undefined }));
  await seedMembers(db, guild.id, people);
  return { guildId: guild.id, botToken };
}

type Frame = { op: number; t?: string | null; d: unknown };

/** One socket, and the time a request takes until its last chunk arrives. */
export type ChunkSession = {
  request(guildId: string, nonce: string): Promise<{ ms: number; members: number; bytes: number; chunks: number }>;
  close(): void;
};

/** Opens a socket; with a token, identifies (GUILDS | GUILD_MEMBERS), heartbeats, and resolves at its GUILD_CREATE. */
export function openChunkSession(url: string, token: string | null): Promise<ChunkSession> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  let timer: NodeJS.Timeout | undefined;
  let onFrame: ((text: string, frame: Frame) => void) | null = null;
  ws.on("message", (data: Buffer) => {
    const text = data.toString();
    onFrame?.(text, JSON.parse(text) as Frame);
  });
  ws.on("close", () => clearInterval(timer));
  const session: ChunkSession = {
    request(guildId, nonce) {
      return new Promise((resolve, reject) => {
        const result = { ms: 0, members: 0, bytes: 0, chunks: 0 };
        const ceiling = setTimeout(() => reject(new Error(`no last chunk for ${nonce} within ${CEILING_MS} ms`)), CEILING_MS);
        const start = performance.now();
        onFrame = (text, frame) => {
          if (frame.op !== GatewayOpcodes.Dispatch) return;
          if (frame.t === GatewayDispatchEvents.RateLimited) return reject(new Error(`rate limited: ${text}`));
          const chunk = frame.d as GatewayGuildMembersChunkDispatchData;
          if (frame.t !== GatewayDispatchEvents.GuildMembersChunk || chunk.nonce !== nonce) return;
          result.members += chunk.members.length;
          result.bytes += Buffer.byteLength(text);
          result.chunks++;
          if (chunk.chunk_index !== chunk.chunk_count - 1) return;
          clearTimeout(ceiling);
          resolve({ ...result, ms: performance.now() - start });
        };
        ws.send(JSON.stringify({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: guildId, query: "", limit: 0, nonce } }));
      });
    },
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.once("error", reject);
    ws.once("close", (code) => reject(new Error(`closed with ${code} before ready`)));
    if (!token) return ws.once("open", () => resolve(session));
    onFrame = (_, frame) => {
      if (frame.op === GatewayOpcodes.Hello) {
        timer = setInterval(
          () => ws.send(JSON.stringify({ op: GatewayOpcodes.Heartbeat, d: null })),
          (frame.d as { heartbeat_interval: number }).heartbeat_interval,
        );
        ws.send(
          JSON.stringify({
            op: GatewayOpcodes.Identify,
            d: {
              token,
              intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers,
              properties: { os: "linux", browser: "guildhall-bench", device: "guildhall-bench" },
            },
          }),
        );
      } else if (frame.op === GatewayOpcodes.Dispatch && frame.t === GatewayDispatchEvents.GuildCreate) {
        onFrame = null;
        resolve(session);
      }
    };
  });
}

/** `warmup` unmeasured requests, then `runs` measured ones, one after another; every run must bring every member. */
export async function timeChunkRuns(session: ChunkSession, guildId: string, warmup: number, runs: number) {
  const measured: { ms: number; members: number; bytes: number; chunks: number }[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const run = await session.request(guildId, `run-${i}`);
    if (run.members !== CHUNK_GUILD_MEMBERS) throw new Error(`run ${i} brought ${run.members} of ${CHUNK_GUILD_MEMBERS} members`);
    if (i >= warmup) measured.push(run);
  }
  return measured;
}
