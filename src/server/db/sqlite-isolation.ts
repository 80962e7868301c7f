import type { SqlDriverAdapter, Transaction } from "@prisma/driver-adapter-utils";

/**
 * Prisma's SQLite adapter (7.10.0) runs every query on its one connection and serialises
 * only transactions against each other, so a query outside a transaction runs inside
 * whichever transaction is open and reads its uncommitted rows: one request would see
 * another's half-made change, and a cache could keep a change that is then rolled back.
 * This makes such queries wait until no transaction is open, as they would on a
 * connection of their own (PostgreSQL gives each transaction its own connection).
 */
export function isolateFromOpenTransactions(adapter: SqlDriverAdapter): SqlDriverAdapter {
  let open: Promise<void> | null = null;
  const outsideTransactions = async () => {
    while (open) await open;
  };
  const isolated: SqlDriverAdapter = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => (open ? outsideTransactions().then(() => adapter.queryRaw(query)) : adapter.queryRaw(query)),
    executeRaw: (query) => (open ? outsideTransactions().then(() => adapter.executeRaw(query)) : adapter.executeRaw(query)),
    executeScript: (script) => adapter.executeScript(script),
    async startTransaction(isolationLevel) {
      const tx = await adapter.startTransaction(isolationLevel);
      let end!: () => void;
      open = new Promise((resolve) => (end = resolve));
      const close = () => {
        open = null;
        end();
      };
      const wrapped: Transaction = {
        provider: tx.provider,
        adapterName: tx.adapterName,
        get options() {
          return tx.options;
        },
        queryRaw: (query) => tx.queryRaw(query),
        executeRaw: (query) => tx.executeRaw(query),
        commit: () => tx.commit().finally(close),
        rollback: () => tx.rollback().finally(close),
      };
      if (tx.createSavepoint) wrapped.createSavepoint = (name) => tx.createSavepoint!(name);
      if (tx.rollbackToSavepoint) wrapped.rollbackToSavepoint = (name) => tx.rollbackToSavepoint!(name);
      if (tx.releaseSavepoint) wrapped.releaseSavepoint = (name) => tx.releaseSavepoint!(name);
      return wrapped;
    },
    dispose: () => adapter.dispose(),
  };
  return isolated;
}
