import { GatewayCloseCodes } from "discord-api-types/v10";

/**
 * Every close code of the platform's table this gateway sends, with when it does, and whether
 * the session stays resumable afterwards (as the platform's table says a client may reconnect
 * and resume). 4006 is not in the platform's current table and is never sent.
 */
export const CLOSE_CODES = {
  [GatewayCloseCodes.UnknownError]: { reason: "Unknown error", when: "an internal failure while handling a frame", resumable: true },
  [GatewayCloseCodes.UnknownOpcode]: { reason: "Unknown opcode", when: "an opcode the gateway does not take from clients", resumable: true },
  [GatewayCloseCodes.DecodeError]: {
    reason: "Decode error",
    when: "malformed JSON, a payload of the wrong shape, a binary frame, or encoding other than json (etf is not offered)",
    resumable: true,
  },
  [GatewayCloseCodes.NotAuthenticated]: {
    reason: "Not authenticated",
    when: "a command other than heartbeat before IDENTIFY or RESUME, or neither within the identify deadline (60 s by default)",
    resumable: true,
  },
  [GatewayCloseCodes.AuthenticationFailed]: { reason: "Authentication failed", when: "IDENTIFY with a token that is not a live bot token", resumable: false },
  [GatewayCloseCodes.AlreadyAuthenticated]: { reason: "Already authenticated", when: "IDENTIFY or RESUME on an identified connection", resumable: true },
  [GatewayCloseCodes.InvalidSeq]: { reason: "Invalid seq", when: "RESUME with a seq past what the session was sent", resumable: false },
  [GatewayCloseCodes.RateLimited]: {
    reason: "Rate limited",
    when: "more than 120 commands in 60 seconds, or a new connection from an address already holding its cap of connections without a session",
    resumable: true,
  },
  [GatewayCloseCodes.SessionTimedOut]: {
    reason: "Session timed out",
    when: "no heartbeat within the interval and its grace (a zombie connection)",
    resumable: false,
  },
  [GatewayCloseCodes.InvalidShard]: { reason: "Invalid shard", when: "shard [id, count] with count < 1 or id outside 0..count-1", resumable: false },
  [GatewayCloseCodes.ShardingRequired]: { reason: "Sharding required", when: "a shard that would hold more guilds than one shard may", resumable: false },
  [GatewayCloseCodes.InvalidAPIVersion]: { reason: "Invalid API version", when: "a `v` query other than 10", resumable: false },
  [GatewayCloseCodes.InvalidIntents]: { reason: "Invalid intent(s)", when: "intents with bits the platform does not define", resumable: false },
  [GatewayCloseCodes.DisallowedIntents]: {
    reason: "Disallowed intent(s)",
    when: "a privileged intent the application does not hold (at IDENTIFY or RESUME), or no longer holds (a live session)",
    resumable: false,
  },
} as const satisfies Partial<Record<GatewayCloseCodes, { reason: string; when: string; resumable: boolean }>>;

export type CloseCode = keyof typeof CLOSE_CODES;

/** A protocol error: the connection closes with this code. */
export class GatewayCloseError extends Error {
  constructor(
    readonly code: CloseCode,
    detail?: string,
  ) {
    super(detail ? `${CLOSE_CODES[code].reason}: ${detail}` : CLOSE_CODES[code].reason);
  }
}

/**
 * The WebSocket protocol's own codes a close frame may carry (RFC 6455: 1004–1006 and 1015 are
 * reserved, never sent). The gateway sends them only when a test twin's fault asks.
 */
export const PROTOCOL_CLOSE_CODES = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014] as const;
export type ProtocolCloseCode = (typeof PROTOCOL_CLOSE_CODES)[number];

/** A close's reason and whether the session survives it: the table's word, and a protocol code keeps the session as a dropped connection does. */
export function closeMeaning(code: CloseCode | ProtocolCloseCode): { reason: string; resumable: boolean } {
  return code in CLOSE_CODES ? CLOSE_CODES[code as CloseCode] : { reason: "", resumable: true };
}
