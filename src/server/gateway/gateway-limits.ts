import { env } from "~/env.ts";
import { DEFAULT_SESSION_START_LIMITS, type SessionStartLimits } from "./session-start-limit.ts";

/** The gateway's timings and limits; defaults are the platform's, operators and tests change some through the environment. */
export type GatewayLimits = {
  /** HELLO's heartbeat_interval. */
  heartbeatIntervalMs: number;
  /** How late a heartbeat may be before the connection counts as a zombie (closed with 4009). */
  heartbeatGraceMs: number;
  /** Client commands per window before 4008. */
  commands: { count: number; windowMs: number };
  /** How long a connection may go without a session (from HELLO, or from an op 9 asking for a new IDENTIFY) before 4003. */
  identifyTimeoutMs: number;
  /** Connections from one client address still without a session; one more is closed with 4008 at once. */
  unidentifiedPerAddress: number;
  /** Guilds one shard may hold before 4011. */
  maxGuildsPerShard: number;
  /** How long a session stays resumable after its connection ends (or its instance stops). */
  resumableMs: number;
  /** Outbox events a RESUME may read past where its client left off; a session further behind is answered op 9 and identifies anew. */
  maxReplayEvents: number;
  /**
   * How long a RESUME waits for the instance whose connection still holds the session to end it
   * and store where its client was; past it (that instance stopped, or the old connection looks
   * alive there), op 9.
   */
  resumeHandoverMs: number;
  /** How often connected sessions are marked seen and expired ones deleted. */
  housekeepingMs: number;
  sessionStart: SessionStartLimits;
};

/**
 * The limits from the environment (GATEWAY_HEARTBEAT_INTERVAL_MS, GATEWAY_SESSION_START_LIMIT,
 * GATEWAY_MAX_CONCURRENCY, GATEWAY_IDENTIFY_TIMEOUT_MS, GATEWAY_UNIDENTIFIED_PER_ADDRESS).
 */
export function gatewayLimitsFromEnv(): GatewayLimits {
  const { GATEWAY_HEARTBEAT_INTERVAL_MS, GATEWAY_SESSION_START_LIMIT, GATEWAY_MAX_CONCURRENCY, GATEWAY_IDENTIFY_TIMEOUT_MS, GATEWAY_UNIDENTIFIED_PER_ADDRESS } =
    env();
  return {
    heartbeatIntervalMs: GATEWAY_HEARTBEAT_INTERVAL_MS,
    heartbeatGraceMs: 10_000,
    commands: { count: 120, windowMs: 60_000 },
    identifyTimeoutMs: GATEWAY_IDENTIFY_TIMEOUT_MS,
    unidentifiedPerAddress: GATEWAY_UNIDENTIFIED_PER_ADDRESS,
    maxGuildsPerShard: 2500,
    // Five minutes: long enough for a client library's reconnect after a network drop or a
    // server restart, short enough that stored sessions stay few.
    resumableMs: 5 * 60_000,
    // A few minutes of a busy bot's events: a RESUME is cheap for the client, so its work is bounded here.
    maxReplayEvents: 10_000,
    resumeHandoverMs: 2000,
    housekeepingMs: 60_000,
    sessionStart: { ...DEFAULT_SESSION_START_LIMITS, total: GATEWAY_SESSION_START_LIMIT, maxConcurrency: GATEWAY_MAX_CONCURRENCY },
  };
}

/** The gateway's WebSocket address: the REST API's host and port (http→ws, https→wss), path /gateway. */
export function gatewayUrl(publicBaseUrl: string): string {
  const url = new URL(publicBaseUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.pathname = "/gateway";
  url.search = "";
  url.hash = "";
  return url.toString();
}
