import { constants, createDeflate, deflateSync } from "node:zlib";
import type { WebSocket } from "ws";

/**
 * How frames leave one connection: "json" text; "zlib-stream" (the query's compress), one
 * deflate context for the whole connection; "zlib-payload" (IDENTIFY's compress flag), each
 * frame deflated on its own.
 */
export type FrameEncoding = "json" | "zlib-stream" | "zlib-payload";

export type FrameSender = { kind: FrameEncoding; send(text: string): void; dispose?(): void };

/**
 * zlib-stream: each frame is flushed with Z_SYNC_FLUSH, so every binary message ends in
 * 00 00 ff ff and the client inflates them in order with one context. Frames are deflated one
 * at a time, so each flush's output is exactly one message.
 */
function zlibStreamSender(ws: WebSocket): FrameSender {
  // A context lives as long as its connection: a 2 KiB window and a small hash table keep it
  // near 24 KiB instead of zlib's default 256 KiB. Clients inflate it with any window size.
  const deflate = createDeflate({ windowBits: 11, memLevel: 5 });
  let output: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => output.push(chunk));
  deflate.on("error", () => ws.terminate());
  let queue = Promise.resolve();
  return {
    kind: "zlib-stream",
    send(text) {
      queue = queue.then(
        () =>
          new Promise<void>((resolve) => {
            deflate.write(text);
            deflate.flush(constants.Z_SYNC_FLUSH, () => {
              const message = Buffer.concat(output);
              output = [];
              if (ws.readyState === ws.OPEN) ws.send(message, { binary: true });
              resolve();
            });
          }),
      );
    },
    dispose() {
      deflate.close();
    },
  };
}

export function createFrameSender(ws: WebSocket, kind: FrameEncoding): FrameSender {
  if (kind === "zlib-stream") return zlibStreamSender(ws);
  return {
    kind,
    send(text) {
      if (ws.readyState !== ws.OPEN) return;
      if (kind === "zlib-payload") ws.send(deflateSync(text), { binary: true });
      else ws.send(text);
    },
  };
}
