import { createServer } from "node:http";
import { WebSocketServer } from "ws";

// The floor for the gateway bench: a bare `ws` server that, on POST /broadcast, sends the
// request's body (the exact frame Guildhall sent for the same change) to every connected
// socket. Configured by the bench: PORT.

const port = Number(process.env.PORT);
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });

const server = createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/broadcast") {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    // Sent as text, as the gateway sends JSON frames.
    const frame = Buffer.concat(chunks).toString();
    for (const client of wss.clients) client.send(frame);
    res.writeHead(204).end();
  });
});
server.on("upgrade", (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req)));
server.listen(port, "127.0.0.1", () => console.log(`floor listening on ${port}`));
