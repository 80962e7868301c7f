import { DiscordAPIError } from "@discordjs/rest";
import { AuditLogEvent, Routes, type APIExtendedInvite, type APIInvite } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { makeUser } from "~/test/factories.ts";
import { inviteKit } from "~/test/invite-kit.ts";
import { useLibraryServer } from "~/test/library-server.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = inviteKit(app);
const library = useLibraryServer(app);

describe("@discordjs/rest on the invite endpoints", () => {
  it("creates, lists, reads with counts and revokes an invite", async () => {
    const { guild, owner, text } = await kit.setup();
    const rest = library.client(owner.token);

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
    const anonymous = library.client();
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
    const rest = library.client(joiner.token, "Bearer");
    const joined = (await rest.post(Routes.invite(code))) as APIInvite & { new_member: boolean };
    expect(joined).toMatchObject({ code, guild: { id: guild.id }, new_member: true });
    expect(await kit.memberRow(guild.id, joiner.user.id)).not.toBeNull();
    // That was its only use.
    const gone = await rest.post(Routes.invite(code)).catch((error: unknown) => error);
    expect((gone as DiscordAPIError).code).toBe(10006);
  });
});
