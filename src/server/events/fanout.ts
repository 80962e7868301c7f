import type { Redis } from "ioredis";
import type { Db } from "~/server/db/client.ts";
import type { Stop } from "~/server/repeat.ts";
import { createEventBus, type StoredEvent } from "./event-bus.ts";
import { tailOutbox, type OutboxTail } from "./outbox-tail.ts";
import { createRedisTransport, type EventTransport } from "./redis-transport.ts";

/** State derived from the database (the caches): told of every committed event, from any instance. */
export type EventSink = {
  /** Drops what the event makes stale. Runs synchronously, before the change's response is sent. */
  apply(event: StoredEvent): void;
  /** Drops everything: events may have been missed while the instance could not hear them. */
  reset(): void;
};

/** One runtime's event delivery: its caches (sinks), its listeners, and how it hears other instances. */
export type EventFanout = {
  /**
   * Listens to every committed event, from this instance or any other, after this instance's
   * caches applied it (what the gateway and live dashboards hear); returns the unsubscribe function.
   */
  subscribe: (listener: (event: StoredEvent) => void) => () => void;
  /** Registers a cache to be told of every committed event. */
  addSink(sink: EventSink): void;
  /**
   * Hands a committed change's events on: this instance's caches drop what they make stale
   * at once (so the response reads its own write), then every instance's caches and event
   * listeners get them, in commit order, through Redis when configured.
   */
  deliverCommitted(events: readonly StoredEvent[]): void;
  /**
   * Without Redis, hears changes other processes store in this database (the operator CLI,
   * another server on the same SQLite file) by reading the outbox every `intervalMs`; with
   * Redis they arrive through it and this does nothing.
   */
  hearOtherProcesses(intervalMs?: number): Stop;
  /**
   * Non-null while this instance hears every committed event; caches keep what they read
   * only if this is the same (not null) before and after the read. Without Redis, changes
   * made here are heard at once and other processes' through the outbox (hearOtherProcesses).
   */
  hearingEpoch: () => number | null;
  /**
   * Resolves once this instance hears every committed event (with Redis: once subscribed), or
   * after `timeoutMs`; false then, and caches stay empty until the subscription is up.
   */
  whenHearingEvents(timeoutMs: number): Promise<boolean>;
  /**
   * The outbox was replaced under this instance (a test twin's restore put back a snapshot's,
   * `head` its newest event): the tail of other processes' changes reads on from there, and
   * sequence numbers delivered before mean nothing now.
   */
  outboxReplaced(head: number): void;
  /** Waits for events already sent to reach Redis, then closes the subscription. */
  close(): Promise<void>;
};

// On PostgreSQL the tail may pass a number before its change commits and never read it;
// the oldest entries go so the set stays small (at worst a listener hears one twice).
const DELIVERED_KEPT = 10_000;

/** Delivery over Redis when `redis` is given (every instance hears every event), else in this process alone. */
export function createEventFanout(options: { db: Db; redis: Redis | null }): EventFanout {
  const bus = createEventBus();
  const sinks = new Set<EventSink>();
  /** While the outbox is tailed (no Redis): events this process delivered at commit, until the tail passes them. */
  let delivered: Set<number> | null = null;
  let tail: OutboxTail | null = null;

  const applyToSinks = (events: readonly StoredEvent[]) => {
    for (const event of events) for (const sink of sinks) sink.apply(event);
  };
  const transport: EventTransport | null = options.redis
    ? createRedisTransport({
        redis: options.redis,
        // Another instance's change: drop what it made stale, then tell local listeners.
        onRemote(events) {
          applyToSinks(events);
          for (const event of events) bus.publish(event);
        },
        // This instance's own change came back: its caches already dropped it (deliverCommitted).
        onOwn(events) {
          for (const event of events) bus.publish(event);
        },
        onReset() {
          for (const sink of sinks) sink.reset();
        },
      })
    : null;

  function rememberDelivered(seq: number): void {
    if (!delivered) return;
    delivered.add(seq);
    if (delivered.size > DELIVERED_KEPT) delivered.delete(delivered.values().next().value!);
  }

  return {
    subscribe: bus.subscribe,
    addSink: (sink) => void sinks.add(sink),
    deliverCommitted(events) {
      if (events.length === 0) return;
      applyToSinks(events);
      if (transport) return transport.send(events);
      for (const event of events) {
        rememberDelivered(event.seq);
        bus.publish(event);
      }
    },
    hearOtherProcesses(intervalMs = 1000) {
      if (transport) return () => undefined;
      const seen = (delivered ??= new Set());
      const current = tailOutbox(options.db, {
        intervalMs,
        isOwn: (seq) => seen.delete(seq),
        deliver(event) {
          applyToSinks([event]);
          bus.publish(event);
        },
      });
      tail = current;
      return () => {
        current.stop();
        if (tail === current) tail = null;
        delivered = null;
      };
    },
    outboxReplaced(head) {
      delivered?.clear();
      tail?.followFrom(head);
    },
    hearingEpoch: () => (transport ? transport.liveEpoch : 0),
    async whenHearingEvents(timeoutMs) {
      if (!transport) return true;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const heard = await Promise.race([transport.live().then(() => true as const), timedOut]);
      clearTimeout(timer);
      return heard;
    },
    close: async () => transport?.close(),
  };
}
