import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import Database from "better-sqlite3";

// The floor for `npm run bench`: the least a server can do for GET /guilds/{id} on the
// same data, namely one indexed read from an in-memory copy of the database, then a
// ready-made answer of the same size.
// Configured by the bench: PORT, DATABASE_FILE, BODY_FILE (the real server's answer).

const port = Number(process.env.PORT);
const image = readFileSync(process.env.DATABASE_FILE!);
// The file is in WAL mode; an in-memory copy must use a rollback journal (header bytes 18-19).
image[18] = 1;
image[19] = 1;
const db = new Database(image);
const body = readFileSync(process.env.BODY_FILE!);
const selectGuild = db.prepare<[string], Record<string, unknown>>('SELECT * FROM "Guild" WHERE "id" = ?');
const GUILD_PATH = /^\/api\/v10\/guilds\/(\d+)$/;

createServer((req, res) => {
  const id = GUILD_PATH.exec(req.url ?? "")?.[1];
  const row = id ? selectGuild.get(id) : undefined;
  if (!row) {
    res.writeHead(404, { "content-type": "application/json" }).end('{"message":"Unknown Guild","code":10004}');
    return;
  }
  res.writeHead(200, { "content-type": "application/json" }).end(body);
}).listen(port, "127.0.0.1", () => console.log(`floor listening on ${port}`));
