// What bench/gateway.bench.ts and its client process (bench/gateway-clients.ts) say over IPC.

export type TriggerRequest = { url: string; method: string; headers: Record<string, string>; body: string };

export type ClientCommand =
  /** Opens one socket per token; a null token opens a plain socket (the floor's clients). */
  | { kind: "connect"; url: string; tokens: (string | null)[]; intents: number; concurrency: number }
  /** Sends `request`, then times the arrival of a `dispatchType` dispatch at every socket. */
  | { kind: "trigger"; request: TriggerRequest; dispatchType: string; ceilingMs: number }
  | { kind: "status" }
  | { kind: "close" };

export type ClientReply =
  | { kind: "started" }
  | { kind: "connected"; open: number; failed: number; failures: string[] }
  /** Milliseconds from sending the trigger to receipt, one per socket that received it; `frame` is one received frame's text. */
  | { kind: "measured"; latencies: number[]; expected: number; answeredMs: number; frame: string }
  | { kind: "status"; open: number; closeCodes: Record<string, number>; heartbeats: number; acks: number }
  | { kind: "closed" }
  | { kind: "error"; message: string };
