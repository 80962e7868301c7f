import { EventEmitter } from "node:events";

/** An event as stored in the outbox and delivered to listeners. */
export type StoredEvent = { seq: number; type: string; guildId: string | null; data: unknown; createdAt: string };

type Listener = (event: StoredEvent) => void;

// One bus per process: the REST server and Next's bundle may each load this module.
const globalForBus = globalThis as unknown as { guildhallEventBus?: EventEmitter };
const bus = (globalForBus.guildhallEventBus ??= new EventEmitter().setMaxListeners(0));

export function publish(event: StoredEvent): void {
  bus.emit("event", event);
}

/** Listens to every event published in this process; returns the unsubscribe function. */
export function subscribe(listener: Listener): () => void {
  bus.on("event", listener);
  return () => bus.off("event", listener);
}
