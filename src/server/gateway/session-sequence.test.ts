import { describe, expect, it } from "vitest";
import { parseSequenceMap, resumePointOf, SessionSequence } from "./session-sequence.ts";

const event = (seq: number, t = "GUILD_UPDATE", guildId: string | null = "g1") => ({ kind: "event" as const, seq, t, guildId });

/** A session started at outbox head 100: READY, a GUILD_CREATE of its start, then events 103 and 107 (routed 101–106 without a dispatch). */
function started() {
  const sequence = new SessionSequence(0, 100);
  sequence.next({ kind: "own" });
  sequence.next({ kind: "start", guildId: "g1" });
  sequence.next(event(103));
  sequence.next(event(107));
  return sequence;
}

describe("a session's numbering", () => {
  it("counts every dispatch by one from 1, whatever sent it", () => {
    const sequence = new SessionSequence(0, 100);
    expect([
      sequence.next({ kind: "own" }),
      sequence.next({ kind: "start", guildId: "g1" }),
      sequence.next(event(101)),
      sequence.next({ kind: "own" }),
    ]).toEqual([1, 2, 3, 4]);
    expect(sequence.map(0, [])).toMatchObject({ first: 0, last: 4, through: 101 });
  });

  it("goes on after a resumed client's s", () => {
    const sequence = new SessionSequence(7, 250);
    expect(sequence.next(event(251))).toBe(8);
    expect(sequence.map(0, [])).toMatchObject({ first: 7, last: 8, befores: [250], through: 251 });
  });
});

describe("resumePointOf", () => {
  it("maps each s to the outbox position before the next dispatch's event, and the last s to what was routed", () => {
    const map = started().map(110, ["g1"]);
    expect(resumePointOf(map, 1)).toMatchObject({ position: 100, guildCreates: ["g1"] });
    expect(resumePointOf(map, 2)).toMatchObject({ position: 102, guildCreates: [] });
    expect(resumePointOf(map, 3)).toMatchObject({ position: 106 });
    // Routed through 110 when the connection ended: 108–110 reached it and sent nothing.
    expect(resumePointOf(map, 4)).toMatchObject({ position: 110 });
  });

  it("puts a session that missed nothing of its start at its own start, never earlier", () => {
    expect(resumePointOf(started().map(110, ["g1"]), 0)).toMatchObject({ position: 100, guildCreates: ["g1"] });
  });

  it("answers never sent past the last s, and unknown before what the client acknowledged", () => {
    const sequence = started();
    expect(resumePointOf(sequence.map(110, []), 5)).toBe("never sent");
    sequence.acknowledge(3);
    const map = sequence.map(110, []);
    expect(resumePointOf(map, 2)).toBe("unknown");
    expect(resumePointOf(map, 3)).toMatchObject({ position: 106 });
  });

  it("ignores an acknowledgement of what was never sent", () => {
    const sequence = started();
    sequence.acknowledge(9);
    sequence.acknowledge(null);
    expect(resumePointOf(sequence.map(110, []), 1)).toMatchObject({ position: 100 });
  });

  it("holds the guilds of the point: joins and leaves the client did not hear are undone", () => {
    const sequence = new SessionSequence(0, 100);
    sequence.next({ kind: "own" });
    sequence.next(event(101, "GUILD_CREATE", "joined"));
    sequence.next(event(102, "GUILD_DELETE", "left"));
    const map = sequence.map(102, ["kept", "joined"]);
    expect(new Set((resumePointOf(map, 1) as { guildIds: string[] }).guildIds)).toEqual(new Set(["kept", "left"]));
    expect(new Set((resumePointOf(map, 2) as { guildIds: string[] }).guildIds)).toEqual(new Set(["kept", "joined", "left"]));
    expect(new Set((resumePointOf(map, 3) as { guildIds: string[] }).guildIds)).toEqual(new Set(["kept", "joined"]));
  });

  it("lets the oldest tenth go past ten thousand unacknowledged dispatches", () => {
    const sequence = new SessionSequence(0, 0);
    for (let seq = 1; seq <= 10_000; seq++) sequence.next(event(seq));
    expect(resumePointOf(sequence.map(10_000, []), 0)).toMatchObject({ position: 0 });
    sequence.next(event(10_001));
    const map = sequence.map(10_001, []);
    expect(resumePointOf(map, 1000)).toBe("unknown");
    expect(resumePointOf(map, 1001)).toMatchObject({ position: 1001 });
    expect(parseSequenceMap(JSON.stringify(map))).toEqual(map);
  });
});

describe("parseSequenceMap", () => {
  it("reads back what a map stores, and nothing else", () => {
    const map = started().map(110, ["g1"]);
    expect(parseSequenceMap(JSON.stringify(map))).toEqual(map);
    expect(parseSequenceMap(null)).toBeNull();
    expect(parseSequenceMap("{not json")).toBeNull();
    expect(parseSequenceMap(JSON.stringify({ ...map, befores: [] }))).toBeNull();
  });
});
