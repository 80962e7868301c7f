import { env } from "~/env.ts";
import type { Db } from "~/server/db/client.ts";
import { getRedis } from "~/server/redis/redis.ts";
import { publish, type StoredEvent } from "./event-bus.ts";
import { tailOutbox } from "./outbox-tail.ts";
import { createRedisTransport, type EventTransport } from "./redis-transport.ts";

/** State derived from the database (the caches): told of every committed event, from any instance. */
export type EventSink = {
  /** Drops what the event makes stale. Runs synchronously, before the change's response is sent. */
  apply(event: StoredEvent): void;
  /** Drops everything: events may have been missed while the instance could not hear them. */
  reset(): void;
};

type Fanout = {
  sinks: Set<EventSink>;
  transport: EventTransport | null | undefined;
  /** While the outbox is tailed (no Redis): events this process delivered at commit, until the tail passes them. */
  delivered: Set<number> | null;
};

// One per process: the REST server and Next's bundle may each load this module.
const globalForFanout = globalThis as unknown as { guildhallFanout?: Fanout };
const fanout = (globalForFanout.guildhallFanout ??= { sinks: new Set(), transport: undefined, delivered: null });

function applyToSinks(events: readonly StoredEvent[]): void {
  for (const event of events) for (const sink of fanout.sinks) sink.apply(event);
}

/** Redis when REDIS_URL is set (every instance hears every event), else this process alone. */
function transport(): EventTransport | null {
  if (fanout.transport === undefined) {
    const redis = env().REDIS_URL ? getRedis() : null;
    fanout.transport = redis
      ? createRedisTransport({
          redis,
          // Another instance's change: drop what it made stale, then tell local listeners.
          onRemote(events) {
            applyToSinks(events);
            for (const event of events) publish(event);
          },
          // This instance's own change came back: its caches already dropped it (deliverCommitted).
          onOwn(events) {
            for (const event of events) publish(event);
          },
          onReset() {
            for (const sink of fanout.sinks) sink.reset();
          },
        })
      : null;
  }
  return fanout.transport;
}

/**
 * Hands a committed change's events on: this instance's caches drop what they make stale
 * at once (so the response reads its own write), then every instance's caches and event
 * listeners get them, in commit order, through Redis when configured.
 */
export function deliverCommitted(events: readonly StoredEvent[]): void {
  if (events.length === 0) return;
  applyToSinks(events);
  const shared = transport();
  if (shared) return shared.send(events);
  for (const event of events) {
    rememberDelivered(event.seq);
    publish(event);
  }
}

// On PostgreSQL the tail may pass a number before its change commits and never read it;
// the oldest entries go so the set stays small (at worst a listener hears one twice).
const DELIVERED_KEPT = 10_000;

function rememberDelivered(seq: number): void {
  const delivered = fanout.delivered;
  if (!delivered) return;
  delivered.add(seq);
  if (delivered.size > DELIVERED_KEPT) delivered.delete(delivered.values().next().value!);
}

/**
 * Without Redis, hears changes other processes store in this database (the operator CLI,
 * another server on the same SQLite file) by reading the outbox every `intervalMs`; with
 * Redis they arrive through it and this does nothing. Returns the stop function.
 */
export function hearOtherProcesses(db: Db, intervalMs = 1000): () => void {
  if (transport()) return () => undefined;
  const delivered = (fanout.delivered ??= new Set());
  const stop = tailOutbox(db, {
    intervalMs,
    isOwn: (seq) => delivered.delete(seq),
    deliver(event) {
      applyToSinks([event]);
      publish(event);
    },
  });
  return () => {
    stop();
    fanout.delivered = null;
  };
}

/** Registers a cache to be told of every committed event; starts hearing other instances. */
export function addEventSink(sink: EventSink): void {
  fanout.sinks.add(sink);
  transport();
}

/**
 * Non-null while this instance hears every committed event; caches keep what they read
 * only if this is the same (not null) before and after the read. Without Redis, changes
 * made here are heard at once and other processes' through the outbox (hearOtherProcesses).
 */
export function hearingEpoch(): number | null {
  const shared = transport();
  return shared ? shared.liveEpoch : 0;
}

/**
 * Resolves once this instance hears every committed event (with Redis: once subscribed), or
 * after `timeoutMs`; false then, and caches stay empty until the subscription is up.
 */
export async function whenHearingEvents(timeoutMs: number): Promise<boolean> {
  const shared = transport();
  if (!shared) return true;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const heard = await Promise.race([shared.live().then(() => true as const), timedOut]);
  clearTimeout(timer);
  return heard;
}

/** Waits for events already sent to reach Redis, then closes the subscription (CLI exit, shutdown). */
export async function closeEventFanout(): Promise<void> {
  const shared = fanout.transport;
  fanout.transport = undefined;
  await shared?.close();
}
