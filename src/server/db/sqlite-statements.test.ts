import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { reusePreparedStatements } from "./sqlite-statements.ts";

// The adapter's calls, as Prisma's SQLite adapter makes them.
function query(db: Database.Database, sql: string, args: unknown[]) {
  const statement = db.prepare(sql).bind(args);
  return { columns: statement.columns().map((c) => c.name), rows: statement.raw().all() };
}

describe("reusePreparedStatements", () => {
  let db: Database.Database;
  let compiled: string[];

  beforeEach(() => {
    db = new Database(":memory:");
    db.defaultSafeIntegers(true);
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO t (id, name) VALUES (?, ?)");
    for (let id = 1; id <= 5; id++) insert.run(id, `row ${id}`);
    compiled = [];
    const prepare = db.prepare.bind(db);
    db.prepare = (sql: string) => {
      compiled.push(sql);
      return prepare(sql);
    };
    reusePreparedStatements(db);
  });

  it("answers each query with its own arguments while compiling the statement once", () => {
    const sql = "SELECT id, name FROM t WHERE id = ?";
    expect(query(db, sql, [2n])).toEqual({ columns: ["id", "name"], rows: [[2n, "row 2"]] });
    expect(query(db, sql, [4n])).toEqual({ columns: ["id", "name"], rows: [[4n, "row 4"]] });
    expect(query(db, sql, [9n]).rows).toEqual([]);
    expect(compiled).toEqual([sql]);
  });

  it("keeps LIMIT and OFFSET semantics when it writes the limit into the statement", () => {
    const sql = "SELECT id FROM t ORDER BY id LIMIT ? OFFSET ?";
    expect(query(db, sql, [2n, 1n]).rows).toEqual([[2n], [3n]]);
    expect(query(db, sql, [1, 0]).rows).toEqual([[1n]]);
    expect(query(db, sql, [-1n, 3n]).rows).toEqual([[4n], [5n]]);
    expect(query(db, sql, [2n, 3n]).rows).toEqual([[4n], [5n]]);
    const compiledWithLimits = compiled.filter((text) => text !== sql);
    expect(compiledWithLimits).toEqual([
      "SELECT id FROM t ORDER BY id LIMIT 2 OFFSET ?",
      "SELECT id FROM t ORDER BY id LIMIT 1 OFFSET ?",
      "SELECT id FROM t ORDER BY id LIMIT -1 OFFSET ?",
    ]);
  });

  it("runs writes and reports their changes, inside and outside transactions", () => {
    db.prepare("BEGIN").run();
    const update = (id: bigint, name: string) => db.prepare("UPDATE t SET name = ? WHERE id = ?").bind([name, id]).run();
    expect(update(1n, "one").changes).toBe(1);
    expect(update(99n, "none").changes).toBe(0);
    db.prepare("ROLLBACK").run();
    expect(update(2n, "two").changes).toBe(1);
    expect(query(db, "SELECT name FROM t WHERE id IN (?, ?) ORDER BY id", [1n, 2n]).rows).toEqual([["row 1"], ["two"]]);
  });

  it("reports a wrong number of arguments as the statement would", () => {
    expect(() => db.prepare("SELECT id FROM t WHERE id = ?").bind([]).raw().all()).toThrow(RangeError);
    expect(query(db, "SELECT id FROM t WHERE id = ?", [3n]).rows).toEqual([[3n]]);
  });
});
