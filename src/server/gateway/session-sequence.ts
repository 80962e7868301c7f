// A session's dispatch numbering, and how a RESUME maps the client's `s` back to the outbox.
// As on the platform, `s` counts a session's dispatches (READY is 1), so it says nothing of
// the outbox by itself: each connection remembers, for the dispatches its client may not have
// received yet, what outbox position each one followed. When the connection ends that memory
// is stored with the session (`SequenceMap`), and a RESUME on any instance reads it. Pure.
import { z } from "zod";

/**
 * What a RESUME needs of a session's numbering, stored as JSON when its connection ends.
 * `marks` are the dispatches that changed or announced the session's guilds: "start" is a
 * GUILD_CREATE of the session's start (no outbox event sends it, so a RESUME that missed it
 * sends it again), "join" and "leave" the GUILD_CREATE and GUILD_DELETE of an event.
 */
const ZSequenceMapSchema = z.object({
  /** The lowest `s` a RESUME may name: the client acknowledged it in a heartbeat, or older ones were let go. */
  first: z.number().int(),
  /** The last `s` sent. */
  last: z.number().int(),
  /** For each `s` in (first, last], in order: the outbox position routed to the session before dispatch `s` was sent. */
  befores: z.array(z.number().int()),
  marks: z.array(z.tuple([z.number().int(), z.enum(["start", "join", "leave"]), z.string()])),
  /** The outbox position routed to the session when the map was taken. */
  through: z.number().int(),
  /** The session's guilds then. */
  guildIds: z.array(z.string()),
});
export type SequenceMap = z.output<typeof ZSequenceMapSchema>;
type GuildMark = SequenceMap["marks"][number];

/** Where a RESUME of `s` picks up: replay the outbox after `position` to a session in `guildIds`, after sending `guildCreates` again. */
export type ResumePoint = { s: number; position: number; guildIds: string[]; guildCreates: string[] };

/**
 * The point a RESUME naming `s` resumes from: "never sent" for an `s` past the last dispatch
 * (4007), "unknown" for one older than the map keeps.
 */
export function resumePointOf(map: SequenceMap, s: number): ResumePoint | "never sent" | "unknown" {
  if (s > map.last) return "never sent";
  if (s < map.first) return "unknown";
  const position = s < map.last ? map.befores[s - map.first]! : map.through;
  // The guilds at `position`: the map's, with the joins and leaves the client did not hear undone.
  const guildIds = new Set(map.guildIds);
  const missed = map.marks.filter(([markS]) => markS > s);
  for (const [, kind, guildId] of [...missed].reverse()) {
    if (kind === "join") guildIds.delete(guildId);
    if (kind === "leave") guildIds.add(guildId);
  }
  return { s, position, guildIds: [...guildIds], guildCreates: missed.filter(([, kind]) => kind === "start").map(([, , guildId]) => guildId) };
}

/**
 * Dispatches kept for a client that does not acknowledge them in heartbeats: past this many,
 * the oldest tenth is let go at once (a RESUME naming them is answered op 9).
 */
const MAX_KEPT = 10_000;
const KEPT_AFTER_LETTING_GO = 9000;

/** What a dispatch is, for the numbering: an outbox event's (with its seq), or one of the session's own. */
export type Numbered =
  | { kind: "event"; seq: number; t: string; guildId: string | null }
  /** READY, RESUMED, a command's answer: no outbox event. */
  | { kind: "own" }
  /** A GUILD_CREATE of the session's start. */
  | { kind: "start"; guildId: string };

/** One connection's numbering of its session's dispatches. */
export class SessionSequence {
  private first: number;
  private last: number;
  private befores: number[] = [];
  private marks: GuildMark[] = [];
  /** Every event up to this outbox position has been routed to the session. */
  private routed: number;

  /** A numbering starting after `s` (0 for a new session), the session having been routed everything up to `position`. */
  constructor(s: number, position: number) {
    this.first = s;
    this.last = s;
    this.routed = position;
  }

  /** The next dispatch's `s`. */
  next(dispatch: Numbered): number {
    const s = ++this.last;
    if (dispatch.kind === "event") {
      // Events are routed in outbox order: every event before this one was routed already.
      this.befores.push(dispatch.seq - 1);
      this.routedThrough(dispatch.seq);
      const kind = dispatch.t === "GUILD_CREATE" ? "join" : dispatch.t === "GUILD_DELETE" ? "leave" : null;
      if (kind && dispatch.guildId) this.marks.push([s, kind, dispatch.guildId]);
    } else {
      this.befores.push(this.routed);
      if (dispatch.kind === "start") this.marks.push([s, "start", dispatch.guildId]);
    }
    if (this.befores.length > MAX_KEPT) this.letGo(this.last - KEPT_AFTER_LETTING_GO);
    return s;
  }

  /** Every event up to `seq` has been routed to the session, whether it sent a dispatch or not. */
  routedThrough(seq: number): void {
    this.routed = Math.max(this.routed, seq);
  }

  /** A heartbeat carried the client's last `s`: it will not resume from before it. */
  acknowledge(s: number | null): void {
    if (s !== null && s > this.first && s <= this.last) this.letGo(s);
  }

  private letGo(s: number): void {
    this.befores.splice(0, s - this.first);
    this.marks = this.marks.filter(([markS]) => markS > s);
    this.first = s;
  }

  /** The map a RESUME reads, the session having been routed everything up to `through` and holding `guildIds`. */
  map(through: number, guildIds: Iterable<string>): SequenceMap {
    return {
      first: this.first,
      last: this.last,
      befores: [...this.befores],
      marks: [...this.marks],
      through: Math.max(through, this.routed),
      guildIds: [...guildIds],
    };
  }
}

/** A stored map, or null when none is stored (or what is stored is not one). */
export function parseSequenceMap(text: string | null): SequenceMap | null {
  if (text === null) return null;
  try {
    const map = ZSequenceMapSchema.safeParse(JSON.parse(text));
    return map.success && map.data.befores.length === map.data.last - map.data.first ? map.data : null;
  } catch {
    return null;
  }
}
