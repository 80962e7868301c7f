// What a gateway connection (connection.ts) needs from its gateway (gateway.ts), apart from
// both so that neither names the other's internals. The connection is a type parameter: this
// file names neither module, so connection.ts can import it.
import type { GatewaySessionView } from "./gateway-types.ts";
import type { ResumeDeps } from "./resume.ts";

/**
 * Test mode's record of one connection (twin/call-capture.ts): frames as sent and received,
 * the close, and the session once IDENTIFY or RESUME gave it one.
 */
export type FrameLog = {
  frame(direction: "in" | "out", text: string): void;
  closed(direction: "in" | "out", code: number): void;
  identified(view: GatewaySessionView): void;
};

/** What a connection (`C`, connection.ts) needs from its gateway. */
export type ConnectionHost<C> = ResumeDeps & {
  log: (error: unknown) => void;
  /** Commands per window before 4008 (the platform: 120 per 60 s). */
  commandLimit: { count: number; windowMs: number };
  /** The connection hears committed events from now on, into its buffer, until it goes live. */
  startBuffering(connection: C): void;
  /** The connection's session receives events as they are routed; its buffer is empty. */
  goLive(connection: C): void;
  /** The connection is gone; true when it still held its session (no newer connection resumed it). */
  remove(connection: C): boolean;
  /** Resolves once the live events heard so far have gone to their sessions, with the last one's seq. */
  settled(): Promise<number>;
  /** A record of each connection's frames (test mode); absent, nothing is recorded. */
  frameLog?: () => FrameLog;
};
