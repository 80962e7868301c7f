import type { GatewayReadyDispatchData } from "discord-api-types/v10";
import type { Db } from "~/server/db/client.ts";
import type { EventRouter, GatewaySessionView } from "./gateway-types.ts";
import type { SessionStartLimits } from "./session-start-limit.ts";

// Apart from handshake.ts, which starts bots' sessions and hands players' to
// player-session.ts: both name these.

/** What IDENTIFY and RESUME need from the gateway. */
export type HandshakeDeps = {
  db: Db;
  router: EventRouter;
  now: () => Date;
  resumeGatewayUrl: string;
  sessionStart: SessionStartLimits;
  /** More guilds than this on one shard closes with 4011 (the platform: 2,500). */
  maxGuildsPerShard: number;
  /** How long a session stays resumable after its connection ends. */
  resumableMs: number;
};

/** A started session, and the id of the token that started it (revoking the token ends the connection). */
export type Identified = { view: GatewaySessionView; ready: GatewayReadyDispatchData; tokenId: string };
