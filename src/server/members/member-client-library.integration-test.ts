import { DiscordAPIError } from "@discordjs/rest";
import { AuditLogEvent, Routes, type APIBan, type APIGuildMember, type RESTGetAPIGuildPruneCountResult } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { memberKit } from "~/test/member-kit.ts";
import { useLibraryServer } from "~/test/library-server.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = memberKit(app);
const library = useLibraryServer(app);

describe("@discordjs/rest on the member endpoints", () => {
  it("reads, renames, times out and bans a member", async () => {
    const { guild, owner } = await kit.setup();
    const member = await kit.addUser(guild.id);
    const rest = library.client(owner.token);

    const fetched = (await rest.get(Routes.guildMember(guild.id, member.user.id))) as APIGuildMember;
    expect(fetched.user.id).toBe(member.user.id);
    const renamed = (await rest.patch(Routes.guildMember(guild.id, member.user.id), {
      body: { nick: "Library" },
      reason: "via the library",
    })) as APIGuildMember;
    expect(renamed.nick).toBe("Library");
    expect((await kit.auditOf(guild.id, AuditLogEvent.MemberUpdate))[0]!.reason).toBe("via the library");

    const until = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const timedOut = (await rest.patch(Routes.guildMember(guild.id, member.user.id), { body: { communication_disabled_until: until } })) as APIGuildMember;
    expect(Date.parse(timedOut.communication_disabled_until!)).toBe(Date.parse(until));

    const count = (await rest.get(Routes.guildPrune(guild.id), { query: new URLSearchParams({ days: "7" }) })) as RESTGetAPIGuildPruneCountResult;
    expect(count).toEqual({ pruned: 0 });

    await rest.put(Routes.guildBan(guild.id, member.user.id), { body: { delete_message_seconds: 0 }, reason: "banned by a library" });
    const bans = (await rest.get(Routes.guildBans(guild.id))) as APIBan[];
    expect(bans).toEqual([{ user: expect.objectContaining({ id: member.user.id }), reason: "banned by a library" }]);

    const gone = await rest.get(Routes.guildMember(guild.id, member.user.id)).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(DiscordAPIError);
    expect((gone as DiscordAPIError).code).toBe(10007);
  });
});
