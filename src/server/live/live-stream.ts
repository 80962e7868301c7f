// One viewer's live stream: every committed event from any instance (runtime.events), after a
// replay from the outbox when the browser comes back with the last event it had, each put to
// `decide`. Each notice carries its event's outbox seq as its id, so a browser that reconnects
// (a network drop, a server restart) names where it stopped and catches up.
import { tracked, type TrackedEnvelope } from "@trpc/server";
import type { Db } from "~/server/db/client.ts";
import type { StoredEvent } from "~/server/events/event-map.ts";
import type { EventFanout } from "~/server/events/fanout.ts";
import { outboxHead, replayAfter, storedEventsAfter } from "~/server/events/outbox-read.ts";
import { runtimeOf } from "~/server/runtime/runtime-of.ts";
import { RESYNC } from "./live-notice.ts";

/** Events waiting for a viewer who reads slowly; past this they are dropped and the viewer refetches everything once. */
const QUEUE_MAX = 5_000;

/** A notice to send, and whether the stream ends after it (the viewer lost what it watches). */
export type Decision<N> = { notice: N | null; end: boolean };

export type ResyncNotice = { type: typeof RESYNC };

type Queued = StoredEvent | typeof RESYNC;

/** Committed events heard from the moment it is made, until `signal` aborts. */
class EventQueue {
  readonly #items: Queued[] = [];
  #wake: (() => void) | null = null;
  readonly #stop: () => void;

  constructor(events: EventFanout, signal: AbortSignal | undefined) {
    this.#stop = events.subscribe((event) => {
      if (this.#items.length < QUEUE_MAX) this.#items.push(event);
      else this.#items.splice(0, this.#items.length, RESYNC);
      this.#wake?.();
    });
    signal?.addEventListener("abort", () => this.close(), { once: true });
  }

  get length(): number {
    return this.#items.length;
  }

  /** The next event, waiting for one; null once `signal` aborted. */
  async next(signal: AbortSignal | undefined): Promise<Queued | null> {
    while (this.#items.length === 0) {
      if (signal?.aborted) return null;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = null;
    }
    return signal?.aborted ? null : this.#items.shift()!;
  }

  close(): void {
    this.#stop();
    this.#wake?.();
  }
}

/** A browser's lastEventId as an outbox seq; null when it names none. */
export function seqOf(lastEventId: string | null | undefined): number | null {
  return lastEventId && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : null;
}

type StreamOptions<N> = {
  db: Db;
  after: number | null;
  /**
   * Whether the viewer could see what happened after `after` as they see it now; when not, the
   * stream sends RESYNC instead of the replay, since `decide` reads today's facts (a browser's
   * last event id is its own to send).
   */
  mayReplayAfter?: (after: number) => Promise<boolean>;
  signal: AbortSignal | undefined;
  decide: (event: StoredEvent) => Promise<Decision<N>>;
};

/**
 * Notices for one viewer: events after `after` replayed from the outbox (when given), then live
 * ones, each decided by `decide`. It listens from the call on, before the browser is told it is
 * connected, so nothing committed in between is lost; a live event the replay already read is
 * not decided twice.
 */
export function liveStream<N>(options: StreamOptions<N>): AsyncGenerator<TrackedEnvelope<N | ResyncNotice>> {
  return notices(new EventQueue(runtimeOf(options.db).events, options.signal), options);
}

async function* notices<N>(
  queue: EventQueue,
  { db, after, mayReplayAfter, signal, decide }: StreamOptions<N>,
): AsyncGenerator<TrackedEnvelope<N | ResyncNotice>> {
  try {
    const replayed = new Set<number>();
    if (after !== null && ((await replayAfter(db, after)) !== "replayable" || (mayReplayAfter && !(await mayReplayAfter(after))))) {
      yield tracked(String(await outboxHead(db)), { type: RESYNC });
    } else if (after !== null) {
      for await (const event of storedEventsAfter(db, after)) {
        if (signal?.aborted) return;
        replayed.add(event.seq);
        const { notice, end } = await decide(event);
        if (notice) yield tracked(String(event.seq), notice);
        if (end) return;
      }
    }
    // Only events heard while the replay read can be in it.
    let heardDuringReplay = queue.length;
    for (let event = await queue.next(signal); event; event = await queue.next(signal)) {
      const wasReplayed = heardDuringReplay > 0 && event !== RESYNC && replayed.has(event.seq);
      if (heardDuringReplay > 0 && --heardDuringReplay === 0) replayed.clear();
      if (wasReplayed) continue;
      if (event === RESYNC) {
        yield tracked(String(await outboxHead(db)), { type: RESYNC });
        continue;
      }
      const { notice, end } = await decide(event);
      if (notice) yield tracked(String(event.seq), notice);
      if (end) return;
    }
  } finally {
    queue.close();
  }
}
