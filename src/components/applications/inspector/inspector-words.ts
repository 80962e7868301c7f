import { GatewayOpcodes } from "discord-api-types/v10";
import { hasStatusClass, type RecordedCall, type StatusClass } from "~/server/twin/call-recorder.ts";

/** Calls the page holds, newest first: as many as the recorder keeps of an application. */
export const MAX_SHOWN_CALLS = 2_000;

export type KindFilter = "all" | RecordedCall["kind"];
export type CallFilters = { kind: KindFilter; status: StatusClass | null; text: string };

/** A status's colour: success green, a caller's mistake orange, a rate limit yellow, the server's failure red. */
export function statusColor(status: number): string {
  if (status === 429) return "yellow";
  if (status < 300) return "green";
  if (status < 400) return "blue";
  if (status < 500) return "orange";
  return "red";
}

/** A gateway opcode's name as the platform's documentation spells it (HELLO, HEARTBEAT_ACK). */
function opName(op: number | null): string {
  const name = op === null ? undefined : (GatewayOpcodes as Record<number, string | undefined>)[op];
  return name ? name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase() : `op ${op ?? "?"}`;
}

/** What a row names: a request's method and path, a frame's opcode and event, a close's code. */
export function callTitle(call: RecordedCall): string {
  if (call.kind === "rest") return `${call.method} ${call.path}`;
  if (call.close_code !== undefined) return `Closed ${call.close_code}`;
  return call.t ? `${opName(call.op)} ${call.t}` : opName(call.op);
}

export function matchesFilters(call: RecordedCall, filters: CallFilters): boolean {
  if (filters.kind !== "all" && call.kind !== filters.kind) return false;
  if (filters.status && (call.kind !== "rest" || !hasStatusClass(call.status, filters.status))) return false;
  const text = filters.text.trim().toLowerCase();
  if (!text) return true;
  const haystack = call.kind === "rest" ? `${call.method} ${call.path} ${call.route ?? ""}` : `${callTitle(call)} ${call.session_id}`;
  return haystack.toLowerCase().includes(text);
}

/** A byte count as people read it: 512 B, 3.4 KB, 1.2 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A recorded instant as a network log shows it: local time to the millisecond. */
export function callTime(at: string): string {
  const date = new Date(at);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** A body's text, indented when it is JSON. */
export function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
