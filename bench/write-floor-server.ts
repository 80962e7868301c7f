import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { DiscordSnowflake } from "@sapphire/snowflake";
import Database from "better-sqlite3";
import pg from "pg";

// The write floor for `npm run bench`: the least a server can do for a write that stores a
// message, namely parse the JSON body, check it, and in one transaction insert the message
// row and its outbox event row, then answer the message as JSON. Any POST or PATCH path.
// Configured by the bench: PORT, DATABASE_URL (a `file:` copy of the bench database, or a
// PostgreSQL database of its own), CHANNEL_ID, GUILD_ID, WEBHOOK_ID (rows of that database).

const MAX_CONTENT = 2000;
// What Guildhall's PostgreSQL client pools by default (pg's own default).
const PG_POOL_SIZE = 10;

const port = Number(process.env.PORT);
const url = process.env.DATABASE_URL!;
const channelId = process.env.CHANNEL_ID!;
const guildId = process.env.GUILD_ID!;
const webhookId = process.env.WEBHOOK_ID!;

const MESSAGE_COLUMNS = ["id", "channelId", "guildId", "webhookId", "authorName", "content", "createdAt"] as const;
const INSERT_MESSAGE = `INSERT INTO "Message" (${MESSAGE_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${MESSAGE_COLUMNS.map((_, i) => `$${i + 1}`).join(", ")})`;
const INSERT_EVENT = `INSERT INTO "Event" ("type", "guildId", "data", "createdAt") VALUES ($1, $2, $3, $4) RETURNING "seq"`;

type Stored = { message: unknown[]; event: unknown[] };
type Store = (row: Stored) => Promise<void>;

function sqliteStore(file: string): Store {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  // SQLite's anonymous parameters in place of PostgreSQL's $N, both in order.
  const message = db.prepare(INSERT_MESSAGE.replace(/\$\d+/g, "?"));
  const event = db.prepare(INSERT_EVENT.replace(/\$\d+/g, "?"));
  const write = db.transaction((row: Stored) => {
    message.run(...row.message);
    event.get(...row.event);
  });
  return (row) => {
    write(row);
    return Promise.resolve();
  };
}

function postgresStore(connectionString: string): Store {
  const pool = new pg.Pool({ connectionString, max: PG_POOL_SIZE });
  return async (row) => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      // Named: each pooled connection prepares the statement once.
      await client.query({ name: "message", text: INSERT_MESSAGE, values: row.message });
      await client.query({ name: "event", text: INSERT_EVENT, values: row.event });
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  };
}

const sqlite = url.startsWith("file:");
const store = sqlite ? sqliteStore(url.slice("file:".length)) : postgresStore(url);
// A DateTime as Prisma's SQLite adapter writes it, so the floor's rows read back like Guildhall's.
const storedTime = (iso: string) => (sqlite ? iso.replace("Z", "+00:00") : iso);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "POST" && req.method !== "PATCH") return answer(res, 405, '{"message":"405: Method Not Allowed","code":0}');
  let content: unknown;
  try {
    content = (JSON.parse(await readBody(req)) as { content?: unknown } | null)?.content;
  } catch {
    return answer(res, 400, '{"message":"The request body contains invalid JSON.","code":50109}');
  }
  if (typeof content !== "string" || content.length < 1 || content.length > MAX_CONTENT) {
    return answer(
      res,
      400,
      JSON.stringify({ message: "Invalid Form Body", code: 50035, errors: { content: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } }),
    );
  }
  const id = DiscordSnowflake.generate().toString();
  const timestamp = new Date().toISOString();
  const message = {
    id,
    type: 0,
    content,
    channel_id: channelId,
    // A webhook's author, with the fields Guildhall's user object has.
    author: {
      id: webhookId,
      username: "Bench deploys",
      discriminator: "0000",
      global_name: null,
      avatar: null,
      bot: true,
      public_flags: 0,
      flags: 0,
      banner: null,
      accent_color: null,
      avatar_decoration_data: null,
      collectibles: null,
      primary_guild: null,
    },
    attachments: [],
    embeds: [],
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    timestamp,
    edited_timestamp: null,
    flags: 0,
    components: [],
    webhook_id: webhookId,
  };
  const body = JSON.stringify(message);
  // The event carries the message with its guild, as the gateway's Message Create does.
  const event = `${body.slice(0, -1)},"guild_id":"${guildId}"}`;
  await store({
    message: [id, channelId, guildId, webhookId, "Bench deploys", content, storedTime(timestamp)],
    event: ["MESSAGE_CREATE", guildId, event, storedTime(timestamp)],
  });
  answer(res, 200, body);
}

createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) answer(res, 500, '{"message":"500: Internal Server Error","code":0}');
  });
}).listen(port, "127.0.0.1", () => console.log(`write floor listening on ${port}`));
