import { Prisma, type Lobby, type LobbyMessage } from "~/generated/prisma/client.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { runtimeOf } from "~/server/runtime/runtime-of.ts";
import { touchLobby } from "./lobby-access.ts";
import { toLobbyMessageObject, type LobbyAuthor } from "./lobby.dto.ts";
import { LobbyEvents, type LobbyMessageObject } from "./lobby.schema.ts";

/** Messages written in one change at most; more wait for the next. */
const MAX_BATCH = 64;

type Written = { lobby: Lobby; object: LobbyMessageObject };

type Pending = {
  lobby: Readonly<Lobby>;
  row: LobbyMessage;
  resolve: (written: Written) => void;
  reject: (error: unknown) => void;
};

type AuthorRow = Omit<LobbyAuthor, "bot" | "system"> & { bot: unknown; system: unknown };

/**
 * The authors of a batch, read raw in its change: a model query costs three times as much,
 * and on SQLite a read outside the change would wait for it to end.
 */
async function readAuthors(tx: Tx, ids: readonly string[]): Promise<Map<string, LobbyAuthor>> {
  const rows = await tx.$queryRaw<AuthorRow[]>`
    SELECT "id", "username", "globalName", "avatar", "bot", "system", "flags" FROM "User" WHERE "id" IN (${Prisma.join([...new Set(ids)])})`;
  // SQLite answers booleans as 0 and 1.
  return new Map(rows.map((row) => [row.id, { ...row, bot: Boolean(row.bot), system: Boolean(row.system), flags: Number(row.flags) }]));
}

/**
 * Lobby messages are the hottest write, and a change's own cost (the transaction) is most of
 * a message's. So messages that arrive while a change is being written wait and go
 * together into the next one (group commit); one arriving when none is being written goes at
 * once. Each message is still all or nothing with its idle clock and its event, and keeps its
 * own outcome: one whose lobby ended meanwhile fails alone (10031).
 */
export class LobbyMessageWriter {
  readonly #db: Db;
  #queue: Pending[] = [];
  #writing = false;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Stores the message, moves the lobby's idle clock and fires Lobby Message Create; the lobby as touched and the message. */
  write(lobby: Readonly<Lobby>, row: LobbyMessage): Promise<Written> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ lobby, row, resolve, reject });
      if (this.#writing) return;
      this.#writing = true;
      // Starts after the requests already received have been read: a change on SQLite runs
      // in microtasks only, so starting now would shut out every request behind this one.
      setImmediate(() => void this.#drain());
    });
  }

  /** Writes one batch, then lets the requests that came meanwhile be read before the next. */
  async #drain(): Promise<void> {
    const batch = this.#queue.splice(0, MAX_BATCH);
    try {
      const written = await runChange({ db: this.#db, actor: null }, async (change) => {
        const authors = await readAuthors(
          change.tx,
          batch.map((pending) => pending.row.authorId),
        );
        // Each lobby's clock once; one that ended meanwhile fails its messages only (not an SQL error, so the rest stands).
        const touched = new Map<string, Lobby | null>();
        for (const { lobby, row } of batch) {
          if (touched.has(lobby.id)) continue;
          const live = await touchLobby(change.tx, lobby.applicationId, lobby.id, { known: lobby, now: row.createdAt }).catch((error: unknown) => {
            if (error instanceof ApiError) return null;
            throw error;
          });
          touched.set(lobby.id, live);
        }
        const results = batch.map(({ lobby, row }): Written | null => {
          const live = touched.get(lobby.id);
          const author = authors.get(row.authorId);
          return live && author ? { lobby: live, object: toLobbyMessageObject({ ...row, author }, lobby.applicationId) } : null;
        });
        const rows = batch
          .filter((_, i) => results[i])
          .map(({ row }) => Prisma.sql`(${row.id}, ${row.lobbyId}, ${row.authorId}, ${row.content}, ${row.flags}, ${row.metadata}, ${row.createdAt})`);
        if (rows.length > 0) {
          await change.tx
            .$executeRaw`INSERT INTO "LobbyMessage" ("id", "lobbyId", "authorId", "content", "flags", "metadata", "createdAt") VALUES ${Prisma.join(rows)}`;
        }
        for (const result of results) if (result) await change.emit(LobbyEvents.MessageCreate, result.object);
        return results;
      });
      batch.forEach((pending, i) => {
        const done = written[i];
        if (done) pending.resolve(done);
        else pending.reject(new ApiError("UNKNOWN_LOBBY"));
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
    if (this.#queue.length > 0) setImmediate(() => void this.#drain());
    else this.#writing = false;
  }
}

/** The runtime's writer for this database client (one per runtime, so its batches are the whole process's). */
export function lobbyMessageWriter(db: Db): LobbyMessageWriter {
  return runtimeOf(db).lobbyMessageWriter;
}
