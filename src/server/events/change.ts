import { GatewayDispatchEvents } from "discord-api-types/v10";
import type { AuditLogEntry } from "~/generated/prisma/client.ts";
import type { Actor } from "~/server/auth/actor.ts";
import { toAuditLogEntryCreate } from "~/server/audit/audit.dto.ts";
import { recordAuditEntry, type AuditEntryInput } from "~/server/audit/audit-entry-writer.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import type { Statements } from "~/server/db/statements.ts";
import { runtimeOf } from "~/server/runtime/runtime-of.ts";
import { insertEvent } from "./event-queries.ts";
import { guildIdOf, type EventMap, type EventType, type StoredEvent } from "./event-map.ts";

/** Who makes a change: a service's context, or an operator's (no actor) from the CLI. */
export type ChangeContext = { db: Db; actor: Actor | null; auditReason?: string | null };

export type Change = {
  tx: Tx;
  /** The change's hot statements, outside Prisma's query pipeline (db/statements.ts). */
  sql: Statements;
  /**
   * Stores an event in the outbox, in this transaction, exactly as the gateway sends it; its
   * guild is read from the payload. Published after commit.
   */
  emit: <K extends EventType>(type: K, data: EventMap[K]) => Promise<void>;
  /** Records an audit log entry by the acting user, with the request's audit reason; GUILD_AUDIT_LOG_ENTRY_CREATE announces it after the change's other events. */
  audit: (entry: Omit<AuditEntryInput, "userId" | "reason">) => Promise<void>;
  /**
   * Starts `work` once the change has committed, without holding up its answer. Only for work
   * whose state the change stored (so the background takes it up again if it fails or this
   * process stops); a failure is logged.
   */
  afterCommit: (label: string, work: (db: Db) => Promise<unknown>) => void;
};

/**
 * Runs a change in one transaction with its events and audit entries, so a failed
 * change leaves neither. It goes through the runtime's write path (write-path.ts): on SQLite
 * together with the changes that arrive while another is written, each isolated. Once
 * committed, the events drop the caches they make stale on this instance before this
 * returns, then reach every instance (events/fanout.ts).
 */
export async function runChange<T>(ctx: ChangeContext, fn: (change: Change) => Promise<T>): Promise<T> {
  // Before anything is written: a database without a runtime could not deliver the events.
  const runtime = runtimeOf(ctx.db);
  const committed: StoredEvent[] = [];
  const later: { label: string; work: (db: Db) => Promise<unknown> }[] = [];
  const audited: AuditLogEntry[] = [];
  return runtime.writes.run({
    async work(tx, sql) {
      const store = async <K extends EventType>(type: K, data: EventMap[K], dropsNoCache = false) => {
        const guildId = guildIdOf(type, data);
        const createdAt = new Date();
        const seq = await insertEvent(sql, { type, guildId, data: JSON.stringify(data), createdAt }, dropsNoCache);
        committed.push({ seq, type, guildId, data, createdAt: createdAt.toISOString() } as StoredEvent);
      };
      const change: Change = {
        tx,
        sql,
        async emit(type, data) {
          await store(type, data);
        },
        async audit(entry) {
          audited.push(await recordAuditEntry(sql, { ...entry, userId: ctx.actor?.userId ?? null, reason: ctx.auditReason ?? null }));
        },
        afterCommit(label, work) {
          later.push({ label, work });
        },
      };
      const result = await fn(change);
      // After the change's own events, so a client already knows what each entry names.
      // Their announcements drop no cache, so they do not stand in for an event the change forgot.
      for (const row of audited) await store(GatewayDispatchEvents.GuildAuditLogEntryCreate, toAuditLogEntryCreate(row), true);
      return result;
    },
    committed() {
      runtime.events.deliverCommitted(committed);
      for (const { label, work } of later) track(work(ctx.db).catch((error: unknown) => console.error(`${label} failed`, error)));
    },
  });
}

// After-commit work still running in this process, so a caller can wait until it is done.
const running = new Set<Promise<unknown>>();

function track(work: Promise<unknown>): void {
  running.add(work);
  void work.finally(() => running.delete(work));
}

/** Resolves once the after-commit work started so far in this process has finished (tests that compare rows before and after a request). */
export async function afterCommitWorkDone(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
