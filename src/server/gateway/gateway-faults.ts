import type { CloseCode, ProtocolCloseCode } from "./close-codes.ts";
import type { GatewaySessionView } from "./gateway-types.ts";

/** Which live sessions a test twin's gateway fault reaches; an absent field matches every session. */
export type GatewayFaultMatch = { application_id?: string; session_id?: string; shard?: number };

/** What a test twin does to a live session at once, as the platform's gateway may. */
export type GatewayFaultAction =
  | { type: "close"; code: CloseCode | ProtocolCloseCode; reason?: string }
  | { type: "reconnect" }
  | { type: "invalid_session"; resumable: boolean }
  | { type: "drop_heartbeat_acks"; count: number };

/** Whether a fault aimed at `match` reaches this session. */
export function faultReaches(match: GatewayFaultMatch, session: GatewaySessionView): boolean {
  if (match.application_id !== undefined && match.application_id !== session.applicationId) return false;
  if (match.session_id !== undefined && match.session_id !== session.sessionId) return false;
  return match.shard === undefined || match.shard === session.shard[0];
}
