import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PrismaClient } from "~/generated/prisma/client.ts";
import { PrismaClient as PostgresPrismaClient } from "~/generated/prisma-postgresql/client.ts";
import { createMigratedDatabase, testProvider, type EmptyDatabase } from "~/test/test-db.ts";
import Database from "better-sqlite3";
import { createDb, sqlitePath } from "./client.ts";
import { isCommit, sqliteConnectionOf, writtenTable } from "./prisma-internals.ts";
import { reusePreparedStatements } from "./sqlite-statements.ts";

// What prisma-internals.ts relies on, checked against the Prisma and adapters installed: a
// Prisma upgrade that breaks one fails here, by name, rather than as stale caches.

type Seen = { sql: string; inTransaction: boolean; via: "queryRaw" | "executeRaw" };

/** The driver adapter with every statement Prisma sends through it noted in `seen`. */
function recording(adapter: SqlDriverAdapter, seen: Seen[]): SqlDriverAdapter {
  const note = (query: SqlQuery, inTransaction: boolean, via: Seen["via"]) => seen.push({ sql: query.sql, inTransaction, via });
  const recordingTx = (tx: Transaction): Transaction => ({
    provider: tx.provider,
    adapterName: tx.adapterName,
    get options() {
      return tx.options;
    },
    queryRaw: (query) => (note(query, true, "queryRaw"), tx.queryRaw(query)),
    executeRaw: (query) => (note(query, true, "executeRaw"), tx.executeRaw(query)),
    commit: () => tx.commit(),
    rollback: () => tx.rollback(),
  });
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => (note(query, false, "queryRaw"), adapter.queryRaw(query)),
    executeRaw: (query) => (note(query, false, "executeRaw"), adapter.executeRaw(query)),
    executeScript: (script) => adapter.executeScript(script),
    startTransaction: async (isolationLevel) => recordingTx(await adapter.startTransaction(isolationLevel)),
    dispose: () => adapter.dispose(),
  };
}

let database: EmptyDatabase;
let raw: SqlDriverAdapter;
let prisma: PrismaClient;
const seen: Seen[] = [];

beforeAll(async () => {
  database = await createMigratedDatabase();
  raw =
    testProvider() === "sqlite"
      ? await new PrismaBetterSqlite3({ url: sqlitePath(database.url) }).connect()
      : await new PrismaPg({ connectionString: database.url }).connect();
  const adapter = recording(raw, seen);
  const factory = { provider: raw.provider, adapterName: raw.adapterName, connect: () => Promise.resolve(adapter) };
  // Each provider's own client (db/client.ts makes the same choice).
  prisma = testProvider() === "sqlite" ? new PrismaClient({ adapter: factory }) : (new PostgresPrismaClient({ adapter: factory }) as unknown as PrismaClient);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await database?.drop();
});

const image = (path: string) => ({ path, contentType: "image/png", data: new Uint8Array([1, 2, 3]) });

describe.runIf(testProvider() === "sqlite")("the SQLite adapter's better-sqlite3 connection", () => {
  it("is found, and Prisma's queries through it reuse their prepared statements", async () => {
    const connection = sqliteConnectionOf(raw);
    const prepare = vi.spyOn(connection, "prepare");
    reusePreparedStatements(connection);
    await prisma.image.create({ data: image("reuse/a") });
    await prisma.image.create({ data: image("reuse/b") });

    const read = () => prisma.image.findUnique({ where: { path: "reuse/a" } });
    const page = (skip: number) => prisma.image.findMany({ orderBy: { path: "asc" }, take: 1, skip }).then((rows) => rows.map((row) => row.path));
    expect((await read())?.contentType).toBe("image/png");
    expect(await page(0)).toEqual(["reuse/a"]);
    const compiled = prepare.mock.calls.length;
    // The same reads again compile nothing: one statement per SQL text, each query with its own arguments.
    for (let i = 0; i < 3; i++) expect((await read())?.path).toBe("reuse/a");
    expect(await page(1)).toEqual(["reuse/b"]);
    expect(prepare.mock.calls.length).toBe(compiled);
  });
  it('opens a transaction with prepare("BEGIN"), so a client of createDb holds the write lock from a transaction\'s start', async () => {
    const db = createDb(database.url);
    // Another connection to the file that does not wait: a write while our transaction holds the lock fails at once.
    const other = new Database(sqlitePath(database.url), { timeout: 0 });
    try {
      let otherWrite: unknown = null;
      await db.$transaction(async (tx) => {
        await tx.image.findMany({ take: 1 });
        try {
          other.prepare("INSERT INTO \"Image\" (path, contentType, data) VALUES ('begin/theirs', 'image/png', x'00')").run();
        } catch (error) {
          otherWrite = error;
        }
        await tx.image.create({ data: image("begin/ours") });
      });
      expect(String(otherWrite)).toMatch(/database is locked/);
      expect((await db.image.findUnique({ where: { path: "begin/ours" } }))?.path).toBe("begin/ours");
    } finally {
      other.close();
      await db.$disconnect();
    }
  });
});

describe(`Prisma's statements on ${testProvider()}`, () => {
  it("name the written table as the event guard reads it, and a transaction ends with COMMIT", async () => {
    const writes: { op: string; verbs: string[] }[] = [];
    await prisma.$transaction(async (tx) => {
      const step = async (op: string, verbs: string[], run: () => Promise<unknown>) => {
        const from = seen.length;
        await run();
        const tables = seen.slice(from).map((s) => writtenTable(s.sql));
        writes.push({ op, verbs: tables.flatMap((w) => (w?.table === "Image" && verbs.includes(w.verb) ? [w.verb] : [])) });
      };
      await step("create", ["INSERT"], () => tx.image.create({ data: image("guard/a") }));
      await step("createMany", ["INSERT"], () => tx.image.createMany({ data: [image("guard/b"), image("guard/c")] }));
      await step("update", ["UPDATE"], () => tx.image.update({ where: { path: "guard/a" }, data: { contentType: "image/gif" } }));
      await step("updateMany", ["UPDATE"], () => tx.image.updateMany({ where: { path: { startsWith: "guard/" } }, data: { contentType: "image/webp" } }));
      await step("upsert", ["INSERT", "UPDATE"], () =>
        tx.image.upsert({ where: { path: "guard/d" }, create: image("guard/d"), update: { contentType: "image/png" } }),
      );
      await step("delete", ["DELETE"], () => tx.image.delete({ where: { path: "guard/a" } }));
      await step("deleteMany", ["DELETE"], () => tx.image.deleteMany({ where: { path: { startsWith: "guard/" } } }));
    });
    for (const write of writes) expect(write.verbs.length, `${write.op} seen as a write to Image`).toBeGreaterThan(0);
    const lastInTransaction = seen.filter((s) => s.inTransaction).at(-1)!;
    expect(lastInTransaction.via).toBe("executeRaw");
    expect(isCommit({ sql: lastInTransaction.sql, args: [], argTypes: [] })).toBe(true);
  });
});
