import { EventEmitter } from "node:events";
import type { StoredEvent } from "./event-map.ts";

export type { StoredEvent };

type Listener = (event: StoredEvent) => void;

/** The listeners of one runtime: told of every committed event, after the caches applied it. */
export type EventBus = {
  publish(event: StoredEvent): void;
  /** Listens to every event published on this bus; returns the unsubscribe function. */
  subscribe: (listener: Listener) => () => void;
};

export function createEventBus(): EventBus {
  const emitter = new EventEmitter().setMaxListeners(0);
  return {
    publish: (event) => void emitter.emit("event", event),
    subscribe(listener) {
      emitter.on("event", listener);
      return () => emitter.off("event", listener);
    },
  };
}
