import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { StoredEvent } from "./event-bus.ts";

/** Carries committed events to every instance, the sender included. */
export type EventTransport = {
  /** This instance's id on the channel; its subscriber connection is named `guildhall-events-<id>`. */
  readonly instanceId: string;
  send(events: readonly StoredEvent[]): void;
  /**
   * While subscribed, a number that changes with every new subscription; null while not
   * subscribed. State read while it stays the same missed no event.
   */
  readonly liveEpoch: number | null;
  /** Resolves once subscribed (at once if already). */
  live(): Promise<void>;
  /** Waits for sent events to reach Redis and unsubscribes. */
  close(): Promise<void>;
};

const EVENTS_CHANNEL = "guildhall:events";

type Message = { origin: string; events: StoredEvent[] };

/**
 * Events over Redis pub/sub on one channel. Redis delivers a channel's messages to every
 * subscriber in the one order it received them, so all instances apply a guild's events
 * in the same order; one instance sends its changes in commit order over one connection.
 */
export function createRedisTransport(options: {
  redis: Redis;
  /** The pub/sub channel; tests use their own. */
  channel?: string;
  /** Another instance's events. */
  onRemote(events: StoredEvent[]): void;
  /** This instance's own events, back from Redis. */
  onOwn(events: StoredEvent[]): void;
  /** The subscription was lost: events may have been missed. */
  onReset(): void;
  log?: (message: string, error?: unknown) => void;
}): EventTransport {
  const origin = randomBytes(8).toString("hex");
  const channel = options.channel ?? EVENTS_CHANNEL;
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[events] ${message}`, error ?? ""));
  // Named, so operators can tell instances apart in CLIENT LIST.
  const subscriber = options.redis.duplicate({
    autoResubscribe: false,
    enableOfflineQueue: false,
    lazyConnect: true,
    connectionName: `guildhall-events-${origin}`,
  });
  const pending = new Set<Promise<unknown>>();
  const waiting: (() => void)[] = [];
  let isLive = false;
  let epoch = 0;
  let isClosing = false;

  subscriber.on("ready", () => {
    subscriber.subscribe(channel).then(
      () => {
        epoch += 1;
        isLive = true;
        for (const resolve of waiting.splice(0)) resolve();
      },
      (error: unknown) => log("subscribing failed", error),
    );
  });
  subscriber.on("close", () => {
    if (!isLive) return;
    isLive = false;
    if (!isClosing) options.onReset();
  });
  subscriber.on("error", (error: unknown) => log("subscriber connection error", error));
  subscriber.on("message", (from: string, text: string) => {
    if (from !== channel) return;
    const message = JSON.parse(text) as Message;
    if (message.origin === origin) options.onOwn(message.events);
    else options.onRemote(message.events);
  });
  subscriber.connect().catch((error: unknown) => log("subscriber could not connect", error));

  return {
    instanceId: origin,
    get liveEpoch() {
      return isLive ? epoch : null;
    },
    send(events) {
      const message: Message = { origin, events: [...events] };
      // Without the subscription the echo would never come back; listeners here hear it now.
      if (!isLive) options.onOwn(message.events);
      const sent = options.redis.publish(channel, JSON.stringify(message)).catch((error: unknown) => {
        log(`publishing ${events.length} event(s) failed; other instances may keep stale state until their subscription resets`, error);
        if (isLive) options.onOwn(message.events);
      });
      pending.add(sent);
      void sent.finally(() => pending.delete(sent));
    },
    live() {
      return isLive ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve));
    },
    async close() {
      isClosing = true;
      await Promise.all(pending);
      subscriber.disconnect();
      isLive = false;
    },
  };
}
