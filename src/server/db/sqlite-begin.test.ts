import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { beginImmediately } from "./sqlite-begin.ts";

// Two connections to one file, as the server and another process writing the same database.
let dir: string;
let ours: Database.Database;
let theirs: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "guildhall-begin-"));
  const file = join(dir, "db.sqlite");
  ours = new Database(file);
  ours.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
  // No busy timeout on the other side: a write that would wait fails at once, so the test shows who holds the lock.
  theirs = new Database(file, { timeout: 0 });
});
afterEach(() => {
  ours.close();
  theirs.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What Prisma's adapter does in a transaction that reads, then writes. */
const readThenWrite = (db: Database.Database, other: () => void) => {
  db.prepare("BEGIN").run();
  db.prepare("SELECT count(*) FROM t").get();
  other();
  db.prepare("INSERT INTO t (name) VALUES ('ours')").run();
  db.prepare("COMMIT").run();
};
const theirWrite = () => theirs.prepare("INSERT INTO t (name) VALUES ('theirs')").run();

describe("a transaction's BEGIN", () => {
  it("as Prisma sends it, a transaction that read is refused its write once another connection wrote", () => {
    expect(() => readThenWrite(ours, theirWrite)).toThrow(/database is locked/);
  });

  it("with beginImmediately, holds the write lock from the start: the other connection waits, our write goes in", () => {
    beginImmediately(ours);
    let refusedWhileOpen = false;
    readThenWrite(ours, () => {
      try {
        theirWrite();
      } catch (error) {
        refusedWhileOpen = String(error).includes("database is locked");
      }
    });
    expect(refusedWhileOpen).toBe(true);
    theirWrite();
    expect(ours.prepare("SELECT name FROM t ORDER BY id").pluck().all()).toEqual(["ours", "theirs"]);
  });

  it("leaves every other statement as it was", () => {
    beginImmediately(ours);
    expect(ours.prepare("SELECT 'BEGIN' AS word").pluck().get()).toBe("BEGIN");
  });
});
