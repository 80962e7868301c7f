import { request, Agent, type ClientRequest } from "node:http";
import { performance } from "node:perf_hooks";

// The dashboard stream bench's browsers: plain HTTP clients holding server-sent event streams
// open, as an EventSource does, and noting when the awaited message arrives on each.

const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

type Stream = { request: ClientRequest; buffer: string; receivedAt: number | null };

export type SseClients = {
  /** Times until every stream has a message containing `marker`, after `trigger` starts; ms from the trigger's start, one per stream that got it. */
  measure(marker: string, trigger: () => Promise<void>, ceilingMs: number): Promise<{ latencies: number[]; answeredMs: number; message: string }>;
  close(): void;
};

/** Opens `count` streams of `url` with these headers (a session cookie each), resolving once every one has its first bytes. */
export async function openStreams(url: string, headersOf: (i: number) => Record<string, string>, count: number, concurrency = 50): Promise<SseClients> {
  const streams: Stream[] = [];
  let awaited: { marker: string; startedAt: number; onMessage: () => void } | null = null;
  let lastMessage = "";

  const openOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const stream: Stream = { request: request(url, { agent, headers: { accept: "text/event-stream", ...headersOf(i) } }), buffer: "", receivedAt: null };
      stream.request.on("response", (response) => {
        if (response.statusCode !== 200) reject(new Error(`stream ${i} answered ${response.statusCode}`));
        response.setEncoding("utf8");
        let opened = false;
        response.on("data", (chunk: string) => {
          if (!opened) {
            opened = true;
            resolve();
          }
          stream.buffer += chunk;
          for (let end = stream.buffer.indexOf("\n\n"); end >= 0; end = stream.buffer.indexOf("\n\n")) {
            const message = stream.buffer.slice(0, end + 2);
            stream.buffer = stream.buffer.slice(end + 2);
            if (awaited && stream.receivedAt === null && message.includes(awaited.marker)) {
              stream.receivedAt = performance.now() - awaited.startedAt;
              lastMessage = message;
              awaited.onMessage();
            }
          }
        });
      });
      stream.request.on("error", reject);
      stream.request.end();
      streams.push(stream);
    });

  for (let i = 0; i < count; i += concurrency) {
    await Promise.all(Array.from({ length: Math.min(concurrency, count - i) }, (_, j) => openOne(i + j)));
  }

  return {
    async measure(marker, trigger, ceilingMs) {
      for (const stream of streams) stream.receivedAt = null;
      let pending = streams.length;
      let done: () => void = () => undefined;
      const all = new Promise<void>((resolve) => (done = resolve));
      const startedAt = performance.now();
      awaited = { marker, startedAt, onMessage: () => --pending === 0 && done() };
      await trigger();
      const answeredMs = performance.now() - startedAt;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, ceilingMs)))]);
      clearTimeout(timer);
      awaited = null;
      const latencies = streams.flatMap((stream) => (stream.receivedAt === null ? [] : [stream.receivedAt]));
      return { latencies, answeredMs, message: lastMessage };
    },
    close() {
      for (const stream of streams) stream.request.destroy();
    },
  };
}
