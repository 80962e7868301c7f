import { AuditLogEvent, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createCaller } from "~/server/trpc/root.ts";
import { makeUser } from "~/test/factories.ts";
import { memberKit, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { loadConformance } from "~/test/openapi-conformance.ts";
import { useTestApp } from "~/test/test-app.ts";

// Handing a guild over with PATCH /guilds/{guild.id} owner_id: the owner only, to a member
// (bots included), recorded and announced like any guild change.

const app = useTestApp();
const kit = memberKit(app);

describe("PATCH /guilds/{guild.id} owner_id", () => {
  it("lets the owner hand the guild to a member, with an audit entry and Guild Update", async () => {
    const { guild, owner, api } = await kit.setup();
    const next = await kit.addUser(guild.id);
    const res = await api.patch(`/guilds/${guild.id}`, { owner_id: next.user.id });
    expect(res.status).toBe(200);
    expect(res.body.owner_id).toBe(next.user.id);
    expect(loadConformance().checkSchema("GuildResponse", res.body)).toBeNull();

    const entries = await app.db.auditLogEntry.findMany({ where: { guildId: guild.id, actionType: AuditLogEvent.GuildUpdate } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ userId: owner.user.id, targetId: guild.id });
    expect(JSON.parse(entries[0]!.changes!)).toContainEqual({ key: "owner_id", old_value: owner.user.id, new_value: next.user.id });
    const events = await app.db.event.findMany({ where: { guildId: guild.id, type: "GUILD_UPDATE" } });
    expect(events.map((event) => JSON.parse(event.data).owner_id)).toEqual([next.user.id]);

    // The old owner is now an ordinary member: no more owner powers.
    expect((await api.patch(`/guilds/${guild.id}`, { name: "Mine again" })).body).toEqual(MISSING_PERMISSIONS);
    expect((await api.delete(`/guilds/${guild.id}`)).status).toBe(403);
    expect((await api.get(`/guilds/${guild.id}`)).body.owner_id).toBe(next.user.id);
  });

  it("lets the owner hand the guild to a bot member, which then owns it", async () => {
    const { guild, api } = await kit.setup();
    const bot = await kit.addBot(guild.id);
    const res = await api.patch(`/guilds/${guild.id}`, { owner_id: bot.user.id });
    expect(res.status).toBe(200);
    expect(res.body.owner_id).toBe(bot.user.id);
    expect((await bot.api.patch(`/guilds/${guild.id}`, { name: "Run by a bot" })).body.name).toBe("Run by a bot");
  });

  it("refuses anyone but the owner, even with Manage Server and Administrator", async () => {
    const { guild, owner, api } = await kit.setup();
    const admin = await kit.addBotWithRole(guild.id, P.Administrator | P.ManageGuild);
    const other = await kit.addUser(guild.id);
    const res = await admin.api.patch(`/guilds/${guild.id}`, { owner_id: other.user.id });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(MISSING_PERMISSIONS);
    expect((await api.get(`/guilds/${guild.id}`)).body.owner_id).toBe(owner.user.id);
  });

  it("refuses a user who is not a member (10007), changing nothing", async () => {
    const { guild, owner, api } = await kit.setup();
    const outsider = await makeUser(app.db);
    const notMember = await api.patch(`/guilds/${guild.id}`, { owner_id: outsider.user.id });
    expect(notMember.status).toBe(404);
    expect(notMember.body).toEqual({ code: 10007, message: "Unknown Member" });

    expect((await api.patch(`/guilds/${guild.id}`, { owner_id: "not a snowflake" })).status).toBe(400);
    expect((await api.get(`/guilds/${guild.id}`)).body.owner_id).toBe(owner.user.id);
    expect(await app.db.auditLogEntry.count({ where: { guildId: guild.id, actionType: AuditLogEvent.GuildUpdate } })).toBe(0);
  });
});

describe("guild.ownerCandidates", () => {
  it("offers the owner the members, bots marked as such, and tells others why they may not transfer", async () => {
    const { guild, owner } = await kit.setup();
    const member = await kit.addUser(guild.id);
    const botMember = await kit.addBot(guild.id);
    const asOwner = createCaller({ db: app.db, userId: owner.user.id });
    const offered = await asOwner.guild.ownerCandidates({ guildId: guild.id, query: "" });
    expect(offered.denial).toBeNull();
    const byId = new Map(offered.candidates.map((candidate) => [candidate.id, candidate.bot]));
    expect(byId.has(owner.user.id)).toBe(false);
    expect(byId.get(member.user.id)).toBe(false);
    expect(byId.get(botMember.user.id)).toBe(true);
    const searched = await asOwner.guild.ownerCandidates({ guildId: guild.id, query: member.user.username.slice(0, 6) });
    expect(searched.candidates.map((candidate) => candidate.id)).toContain(member.user.id);

    const asMember = createCaller({ db: app.db, userId: member.user.id });
    expect(await asMember.guild.ownerCandidates({ guildId: guild.id, query: "" })).toMatchObject({
      denial: "Only the owner can transfer ownership.",
      candidates: [],
    });
    // The dashboard's transfer goes through the same service as REST.
    await expect(asMember.guild.modify({ guildId: guild.id, body: { owner_id: member.user.id } })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
