import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forgetApplicationReach } from "~/server/applications/intents.ts";
import { sqliteWriteAccess, type SqliteWriteAccess } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import type { Gateway } from "~/server/gateway/gateway.ts";
import type { Runtime } from "~/server/runtime/runtime.ts";
import { copyDatabaseTo, replaceDatabaseFrom } from "./sqlite-copy.ts";
import type { TwinClock } from "./twin-clock.ts";

/** A snapshot as the twin API shows it. */
export type SnapshotInfo = {
  id: string;
  name: string | null;
  /** When it was taken, in real time. */
  created_at: string;
  /** The twin's clock when it was taken: a restore puts the clock back there. */
  clock: { now: string; frozen: boolean };
  bytes: number;
};

type Stored = { info: SnapshotInfo; file: string; clockMs: number };

/**
 * What a restored world holds of gateway connections, which are all gone: their sessions,
 * the presences and voice connections those held, and the IDENTIFY slots (a throttle of
 * connections, like the rate limiter's counts). Deleted without events: the outbox is the
 * snapshot's, and every client identifies anew and reads the world as it now is.
 */
const CONNECTIONS_HELD = `
  DELETE FROM "VoiceState" WHERE "gatewaySessionId" IS NOT NULL;
  DELETE FROM "Presence";
  DELETE FROM "GatewaySession";
  DELETE FROM "GatewayIdentifySlot";`;

const elapsedMs = (since: number) => Math.round((performance.now() - since) * 10) / 10;

/**
 * A test twin's snapshots of its whole state: copies of the SQLite database (VACUUM INTO)
 * in a folder of its own, made when the first is taken and removed when the runtime closes,
 * with the twin's clock at that moment. Taking and restoring one run in the write path's
 * exclusive section, so no change is half in, half out.
 */
export class TwinSnapshots {
  readonly #clock: TwinClock;
  readonly #stored = new Map<string, Stored>();
  #folder: string | null = null;
  #taken = 0;

  constructor(clock: TwinClock) {
    this.#clock = clock;
  }

  /** Every snapshot kept, oldest first. */
  list(): SnapshotInfo[] {
    return [...this.#stored.values()].map((stored) => stored.info);
  }

  async take(runtime: Runtime, name: string | null): Promise<SnapshotInfo & { took_ms: number }> {
    const sqlite = sqliteOf(runtime);
    const started = performance.now();
    const id = `snap-${++this.#taken}`;
    const file = join((this.#folder ??= mkdtempSync(join(tmpdir(), "guildhall-snapshots-"))), `${id}.db`);
    const clockMs = await runtime.writes.exclusive(() => {
      copyDatabaseTo(sqlite.connection(), file);
      return this.#clock.nowMs();
    });
    const info: SnapshotInfo = {
      id,
      name,
      // The real time, whatever the twin's clock says.
      created_at: new Date(performance.timeOrigin + performance.now()).toISOString(),
      clock: { now: new Date(clockMs).toISOString(), frozen: this.#clock.frozen },
      bytes: statSync(file).size,
    };
    this.#stored.set(id, { info, file, clockMs });
    return { ...info, took_ms: elapsedMs(started) };
  }

  delete(id: string): void {
    const stored = this.#find(id);
    this.#stored.delete(id);
    rmSync(stored.file, { force: true });
  }

  /**
   * Puts the snapshot's world back: its rows, the clock as it was, nothing cached or counted
   * from the world replaced, and every gateway connection told to reconnect. Changes that
   * arrive meanwhile wait, then commit in the restored world.
   */
  restore(serving: { runtime: Runtime; gateway: Gateway | null }, id: string): Promise<{ id: string; took_ms: number; sessions_reconnected: number }> {
    const { runtime, gateway } = serving;
    const sqlite = sqliteOf(runtime);
    this.#find(id);
    const started = performance.now();
    // Synchronous from the first row replaced to the last session told: nothing reads between.
    return runtime.writes.exclusive(() => {
      const { file, clockMs, info } = this.#find(id);
      const connection = sqlite.connection();
      let head = 0;
      replaceDatabaseFrom(connection, file, () => {
        connection.exec(CONNECTIONS_HELD);
        head = Number((connection.prepare(`SELECT COALESCE(MAX("seq"), 0) AS "head" FROM "Event"`).get() as { head: number | bigint }).head);
      });
      runtime.stateCache.clear();
      forgetApplicationReach();
      runtime.limiter.reset();
      this.#clock.set(clockMs, info.clock.frozen);
      runtime.events.outboxReplaced(head);
      const reconnected = gateway?.reconnectAll() ?? 0;
      return { id, took_ms: elapsedMs(started), sessions_reconnected: reconnected };
    });
  }

  /** Removes the folder and every snapshot in it (the runtime closes). */
  discard(): void {
    this.#stored.clear();
    if (this.#folder) rmSync(this.#folder, { recursive: true, force: true });
    this.#folder = null;
  }

  #find(id: string): Stored {
    const stored = this.#stored.get(id);
    if (!stored) throw new ApiError("UNKNOWN_TWIN_SNAPSHOT", { message: `Unknown snapshot: this twin has no snapshot ${JSON.stringify(id)}` });
    return stored;
  }
}

/** The database's one SQLite connection; snapshots are refused on PostgreSQL and beside Redis. */
function sqliteOf(runtime: Runtime): SqliteWriteAccess {
  const sqlite = sqliteWriteAccess(runtime.db);
  if (!sqlite) throw new ApiError("TWIN_SNAPSHOTS_UNAVAILABLE", { message: "Snapshots need a twin on SQLite: this one runs on PostgreSQL" });
  if (runtime.redis)
    throw new ApiError("TWIN_SNAPSHOTS_UNAVAILABLE", {
      message: "Snapshots need a twin without Redis: rate limit counts and events kept there are shared with other instances",
    });
  return sqlite;
}
