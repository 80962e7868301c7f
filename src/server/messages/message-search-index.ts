// The message search index (spec 4.9, 7). MessageSearch is raw SQL beside Message (migration
// add_message_search): FTS5 with English stems on SQLite, a tsvector under a GIN index on
// PostgreSQL. Triggers keep it in step with every create, content edit and delete, cascaded
// ones too. Messages from before the index (existing guilds after the migration) or from
// before an operator's rebuild are indexed by a build per guild, in batches; until it is done
// the guild's searches answer 110000. A build is claimed with a lease renewed per batch, so
// one whose worker stopped is taken up again by any instance, and it starts where it stopped.
import { randomUUID } from "node:crypto";
import { Prisma } from "~/generated/prisma/client.ts";
import { providerOf, type Db, type Tx } from "~/server/db/client.ts";
import type { DbProvider } from "~/server/db/provider.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { repeatEvery, type Stop } from "~/server/repeat.ts";

const BATCH = 500;
const LEASE_MS = 30_000;
const POLL_MS = 5_000;

/** The words of a search text as both engines' tokenizers split it: runs of letters and digits. */
export function searchWords(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * An FTS5 query matching documents with every word, each quoted, so no user text is read as
 * query syntax (AND, NEAR, column filters, `*`).
 */
export function ftsQuery(words: readonly string[]): string {
  return words.map((word) => `"${word.replaceAll('"', '""')}"`).join(" ");
}

/**
 * The messages `m` whose content has every word (by stem), as a FROM source, and their
 * `rank`: smaller is more relevant.
 */
export function contentMatch(provider: DbProvider, words: readonly string[]): { source: Prisma.Sql; rank: Prisma.Sql } {
  if (provider === "postgresql") {
    const query = Prisma.sql`plainto_tsquery('english', ${words.join(" ")})`;
    return {
      source: Prisma.sql`"Message" m JOIN "MessageSearch" s ON s."messageId" = m."id" AND s."document" @@ ${query}`,
      rank: Prisma.sql`-ts_rank(s."document", ${query})`,
    };
  }
  // The FTS rowid is the message id as an integer. CROSS JOIN makes SQLite read the matches
  // once and find each message by key; the other way round it evaluates the MATCH once per
  // message of the guild (measured: 8 s instead of 15 ms for a guild of 200,000 messages).
  return {
    source: Prisma.sql`(SELECT "rowid" AS "docId", bm25("MessageSearch") AS "rank" FROM "MessageSearch" WHERE "MessageSearch" MATCH ${ftsQuery(words)}) s
      CROSS JOIN "Message" m ON m."id" = CAST(s."docId" AS TEXT)`,
    rank: Prisma.sql`s."rank"`,
  };
}

/** Writes the index rows of these messages from their content now (replacing what was there). */
async function indexMessages(tx: Tx, provider: DbProvider, ids: readonly string[]): Promise<void> {
  const list = Prisma.join(ids);
  if (provider === "postgresql") {
    await tx.$executeRaw`
      INSERT INTO "MessageSearch" ("messageId", "document")
      SELECT "id", to_tsvector('english', "content") FROM "Message" WHERE "id" IN (${list}) AND "content" <> ''
      ON CONFLICT ("messageId") DO UPDATE SET "document" = EXCLUDED."document"`;
    return;
  }
  await tx.$executeRaw`
    INSERT OR REPLACE INTO "MessageSearch" ("rowid", "content")
    SELECT CAST("id" AS INTEGER), "content" FROM "Message" WHERE "id" IN (${list}) AND "content" <> ''`;
}

/** The next batch of a guild's messages after `cursor`, in text order (any fixed order walks them all; this one has an index). */
async function nextBatch(tx: Tx, provider: DbProvider, guildId: string, cursor: string | null): Promise<string[]> {
  const after = cursor === null ? Prisma.empty : Prisma.sql`AND "id" > ${cursor}`;
  // On PostgreSQL the rows stay locked until the batch commits, so an edit cannot slip
  // between reading a message's content here and writing its index row.
  const lock = provider === "postgresql" ? Prisma.sql`FOR SHARE` : Prisma.empty;
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Message" WHERE "guildId" = ${guildId} ${after} ORDER BY "id" LIMIT ${BATCH} ${lock}`;
  return rows.map((row) => row.id);
}

/** How far a guild's build has come, or null when its messages are all indexed. */
export async function searchIndexBuildOf(db: Db, guildId: string): Promise<{ documentsIndexed: number } | null> {
  return db.searchIndexBuild.findUnique({ where: { guildId }, select: { documentsIndexed: true } });
}

/**
 * Marks a guild's index as not built and starts the build over from its first message (the
 * operator's `search reindex`); a worker on the earlier build loses its lease. 10004 for an
 * unknown guild.
 */
export async function requestSearchIndexBuild(db: Db, guildId: string): Promise<void> {
  if (!(await db.guild.findUnique({ where: { id: guildId }, select: { id: true } }))) throw new ApiError("UNKNOWN_GUILD");
  const fresh = { cursor: null, documentsIndexed: 0, leaseToken: null, leaseUntil: null, startedAt: new Date() };
  await runChange({ db, actor: null }, ({ tx }) => tx.searchIndexBuild.upsert({ where: { guildId }, create: { guildId, ...fresh }, update: fresh }));
}

class LeaseLost extends Error {}

/**
 * Runs a guild's build unless a live worker holds it: indexes its messages batch by batch
 * from where the build stands, then marks the guild indexed. Returns when done, or as soon as
 * another worker (or a new request) took the build over.
 */
export async function runSearchIndexBuild(db: Db, guildId: string): Promise<void> {
  const token = randomUUID();
  const provider = providerOf(db);
  const now = Date.now();
  const claim = await runChange({ db, actor: null }, ({ tx }) =>
    tx.searchIndexBuild.updateMany({
      where: { guildId, OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date(now) } }] },
      data: { leaseToken: token, leaseUntil: new Date(now + LEASE_MS) },
    }),
  );
  if (claim.count === 0) return;
  const mine = { guildId, leaseToken: token };
  try {
    for (;;) {
      const isDone = await runChange({ db, actor: null }, async ({ tx }) => {
        const build = await tx.searchIndexBuild.findFirst({ where: mine, select: { cursor: true } });
        if (!build) throw new LeaseLost();
        const ids = await nextBatch(tx, provider, guildId, build.cursor);
        if (ids.length > 0) await indexMessages(tx, provider, ids);
        if (ids.length < BATCH) {
          await tx.searchIndexBuild.deleteMany({ where: mine });
          return true;
        }
        const held = await tx.searchIndexBuild.updateMany({
          where: mine,
          data: { cursor: ids.at(-1)!, documentsIndexed: { increment: ids.length }, leaseUntil: new Date(Date.now() + LEASE_MS) },
        });
        if (held.count === 0) throw new LeaseLost();
        return false;
      });
      if (isDone) return;
    }
  } catch (error) {
    if (error instanceof LeaseLost) return;
    // The lease lapses and the build is taken up again from its last batch.
    console.error(`[search] index build of guild ${guildId} failed`, error);
  }
}

/** Takes up to ten builds nobody holds (new after the migration, requested, or whose worker stopped); answers how many it took up. */
export async function runDueSearchIndexBuilds(db: Db): Promise<number> {
  const builds = await db.searchIndexBuild.findMany({
    where: { OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }] },
    select: { guildId: true },
    take: 10,
  });
  for (const build of builds) await runSearchIndexBuild(db, build.guildId);
  return builds.length;
}

/** Takes up builds nobody holds, every few seconds. */
export function startSearchIndexBuilds(db: Db): Stop {
  return repeatEvery(() => runDueSearchIndexBuilds(db), { intervalMs: POLL_MS, label: "[search] index builds" });
}
