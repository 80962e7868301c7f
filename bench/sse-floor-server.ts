import { createServer, type ServerResponse } from "node:http";

// The floor for the dashboard stream bench: a bare node:http server holding server-sent event
// streams open (GET /stream) and, on POST /broadcast, writing the request's body (the exact
// message Guildhall sent for the same change) to each of them. Configured by the bench: PORT.

const port = Number(process.env.PORT);
const streams = new Set<ServerResponse>();

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/stream") {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(": connected\n\n");
    streams.add(res);
    req.on("close", () => streams.delete(res));
    return;
  }
  if (req.method !== "POST" || req.url !== "/broadcast") {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const message = Buffer.concat(chunks).toString();
    for (const stream of streams) stream.write(message);
    res.writeHead(204).end();
  });
});
server.listen(port, "127.0.0.1", () => console.log(`floor listening on ${port}`));
