import { recordAuditEntry, type AuditEntryInput } from "~/server/audit/audit.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Tx } from "~/server/db/client.ts";
import { publish, type StoredEvent } from "./event-bus.ts";

export type Change = {
  tx: Tx;
  /** Stores a gateway event in the outbox, in this transaction; published after commit. */
  emit(type: string, guildId: string | null, data: unknown): Promise<void>;
  /** Records an audit log entry by the acting user, with the request's audit reason. */
  audit(entry: Omit<AuditEntryInput, "userId" | "reason">): Promise<void>;
};

/**
 * Runs a change in one transaction with its events and audit entries, so a failed
 * change leaves neither; events reach listeners only once the change is committed.
 */
export async function runChange<T>(ctx: ServiceContext, fn: (change: Change) => Promise<T>): Promise<T> {
  const committed: StoredEvent[] = [];
  const result = await ctx.db.$transaction(async (tx) => {
    const change: Change = {
      tx,
      async emit(type, guildId, data) {
        const row = await tx.event.create({ data: { type, guildId, data: JSON.stringify(data) } });
        committed.push({ seq: row.seq, type, guildId, data, createdAt: row.createdAt.toISOString() });
      },
      async audit(entry) {
        await recordAuditEntry(tx, { ...entry, userId: ctx.actor.userId, reason: ctx.auditReason ?? null });
      },
    };
    return fn(change);
  });
  for (const event of committed) publish(event);
  return result;
}
