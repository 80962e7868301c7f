import { createServer } from "node:http";
import { GatewayDispatchEvents, GatewayOpcodes } from "discord-api-types/v10";
import { WebSocketServer } from "ws";
import { createDb } from "~/server/db/client.ts";
import { toMemberObject } from "~/server/members/member.dto.ts";

// The floor for the member-chunk bench: a bare `ws` server that answers any message with a
// guild's members as GUILD_MEMBERS_CHUNK frames of 1000, read from the same database in one
// query per table (no paging, no session, no rules) and mapped by the same member DTO.
// Configured by the bench: PORT, DATABASE_URL, GUILD_ID.

const port = Number(process.env.PORT);
const guildId = process.env.GUILD_ID ?? "";
const db = createDb(process.env.DATABASE_URL);
const PER_CHUNK = 1000;
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });

wss.on("connection", (ws) => {
  ws.on("message", (data: Buffer) => {
    const { nonce } = (JSON.parse(data.toString()) as { d: { nonce: string } }).d;
    void (async () => {
      const [members, roles] = await Promise.all([
        db.member.findMany({ where: { guildId }, include: { user: true }, orderBy: { userId: "asc" } }),
        db.memberRole.findMany({ where: { guildId }, select: { userId: true, roleId: true } }),
      ]);
      const rolesOf = new Map<string, { roleId: string }[]>();
      for (const role of roles) rolesOf.set(role.userId, [...(rolesOf.get(role.userId) ?? []), role]);
      const count = Math.ceil(members.length / PER_CHUNK);
      for (let i = 0; i < count; i++) {
        const slice = members.slice(i * PER_CHUNK, (i + 1) * PER_CHUNK).map((row) => toMemberObject({ ...row, roles: rolesOf.get(row.userId) ?? [] }));
        const d = { guild_id: guildId, members: slice, chunk_index: i, chunk_count: count, nonce };
        ws.send(JSON.stringify({ op: GatewayOpcodes.Dispatch, t: GatewayDispatchEvents.GuildMembersChunk, s: null, d }));
      }
    })();
  });
});

const server = createServer((_, res) => res.writeHead(404).end());
server.on("upgrade", (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req)));
server.listen(port, "127.0.0.1", () => console.log(`chunk floor listening on ${port}`));
