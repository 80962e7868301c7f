import { describe, expect, it } from "vitest";
import { DROPS_NO_CACHE, TransactionWrites } from "./event-guard.ts";

const GUILD_UPDATE = `UPDATE "Guild" SET "name" = ? WHERE "id" = ?`;
const EVENT = `INSERT INTO "Event" ("type", "guildId", "data", "createdAt") VALUES (?, ?, ?, ?) RETURNING "seq"`;
const AUDIT = `INSERT INTO "AuditLogEntry" ("id") VALUES (?)`;

describe("what a transaction of several changes wrote", () => {
  it("holds each change to its own event", () => {
    const writes = new TransactionWrites();
    const first = writes.mark();
    writes.observe(GUILD_UPDATE, 1);
    writes.observe(EVENT, 1);
    expect(writes.unannouncedSince(first)).toEqual([]);
    const second = writes.mark();
    writes.observe(GUILD_UPDATE, 1);
    writes.observe(AUDIT, 1);
    // The first change's event does not announce the second's write.
    expect(writes.unannouncedSince(second)).toEqual(["Guild"]);
  });

  it("does not count an event that drops no cache (an audit entry announced) as announcing the change's writes", () => {
    const writes = new TransactionWrites();
    writes.observe(GUILD_UPDATE, 1);
    writes.observe(AUDIT, 1);
    writes.observe(`${EVENT} ${DROPS_NO_CACHE}`, 1);
    expect(writes.unannouncedSince(0)).toEqual(["Guild"]);
  });

  it("forgets a change rolled back to its savepoint, so the transaction commits what stands", () => {
    const writes = new TransactionWrites();
    writes.observe(AUDIT, 1);
    const refused = writes.mark();
    writes.observe(GUILD_UPDATE, 1);
    writes.rollBackTo(refused);
    expect(writes.unannouncedSince(0)).toEqual([]);
  });

  it("counts no write that changed no rows", () => {
    const writes = new TransactionWrites();
    writes.observe(GUILD_UPDATE, 0);
    expect(writes.unannouncedSince(0)).toEqual([]);
  });
});
