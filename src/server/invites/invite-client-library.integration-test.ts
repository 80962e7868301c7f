import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DiscordAPIError, REST } from "@discordjs/rest";
import { AuditLogEvent, Routes, type APIExtendedInvite, type APIInvite } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveNode } from "~/server/http/node-adapter.ts";
import { makeUser } from "~/test/factories.ts";
import { inviteKit } from "~/test/invite-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = inviteKit(app);
let server: Server;
let api: string;

// The platform's own client library, unchanged, pointed at Guildhall over HTTP.
beforeAll(async () => {
  server = createServer((req, res) => serveNode(app.handler, req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("@discordjs/rest on the invite endpoints", () => {
  it("creates, lists, reads with counts and revokes an invite", async () => {
    const { guild, owner, text } = await kit.setup();
    const rest = new REST({ api, version: "10", retries: 0 }).setToken(owner.token);

    const created = (await rest.post(Routes.channelInvites(text.id), {
      body: { max_age: 3600, max_uses: 5, unique: true },
      reason: "from the library",
    })) as APIExtendedInvite;
    expect(created).toMatchObject({ max_age: 3600, max_uses: 5, uses: 0, channel: { id: text.id } });
    expect((await kit.auditOf(guild.id, AuditLogEvent.InviteCreate))[0]!.reason).toBe("from the library");

    const listed = (await rest.get(Routes.channelInvites(text.id))) as APIExtendedInvite[];
    expect(listed.map((invite) => invite.code)).toEqual([created.code]);
    expect(((await rest.get(Routes.guildInvites(guild.id))) as APIExtendedInvite[]).map((invite) => invite.code)).toEqual([created.code]);

    // No token needed to read an invite.
    const anonymous = new REST({ api, version: "10", retries: 0 });
    const read = (await anonymous.get(Routes.invite(created.code), { auth: false, query: new URLSearchParams({ with_counts: "true" }) })) as APIInvite;
    expect(read).toMatchObject({ code: created.code, guild: { id: guild.id }, approximate_member_count: 1 });

    const revoked = (await rest.delete(Routes.invite(created.code), { reason: "revoked by a library" })) as APIInvite;
    expect(revoked.code).toBe(created.code);
    expect((await kit.auditOf(guild.id, AuditLogEvent.InviteDelete))[0]!.reason).toBe("revoked by a library");

    const gone = await anonymous.get(Routes.invite(created.code), { auth: false }).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(DiscordAPIError);
    expect((gone as DiscordAPIError).code).toBe(10006);
    expect((gone as DiscordAPIError).status).toBe(404);
  });

  it("joins a user with a Bearer token through POST /invites/{code}", async () => {
    const { guild, api: ownerApi, text } = await kit.setup();
    const code = await kit.code(ownerApi, text.id, { max_uses: 1 });
    const joiner = await makeUser(app.db);
    const rest = new REST({ api, version: "10", retries: 0, authPrefix: "Bearer" }).setToken(joiner.token);
    const joined = (await rest.post(Routes.invite(code))) as APIInvite & { new_member: boolean };
    expect(joined).toMatchObject({ code, guild: { id: guild.id }, new_member: true });
    expect(await kit.memberRow(guild.id, joiner.user.id)).not.toBeNull();
    // That was its only use.
    const gone = await rest.post(Routes.invite(code)).catch((error: unknown) => error);
    expect((gone as DiscordAPIError).code).toBe(10006);
  });
});
