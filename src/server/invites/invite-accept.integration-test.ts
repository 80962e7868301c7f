import { GatewayDispatchEvents as E, GuildFeature, GuildMemberFlags, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { makeUser } from "~/test/factories.ts";
import { HOUR_MS, UNKNOWN_INVITE, inviteKit } from "~/test/invite-kit.ts";
import { UNAUTHORIZED } from "~/test/member-kit.ts";
import { bearer } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = inviteKit(app);

/** A guild with an invite made by its owner bot, and a user who accepts it over REST. */
async function setup(body: Record<string, unknown> = {}) {
  const base = await kit.setup();
  const code = await kit.code(base.api, base.text.id, body);
  const joiner = await makeUser(app.db);
  const accept = (user = joiner, inviteCode = code) => app.as(bearer(user.token)).post(`/invites/${inviteCode}`);
  return { ...base, code, joiner, accept };
}

describe("POST /invites/:code", () => {
  it("joins the user, answers the invite with new_member, counts the use and fires Guild Member Add", async () => {
    const { guild, text, code, joiner, accept } = await setup({ max_uses: 5 });
    const res = await accept();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code, guild: { id: guild.id }, channel: { id: text.id }, new_member: true });
    const row = await kit.memberRow(guild.id, joiner.user.id);
    expect(row).toMatchObject({ pending: false, temporary: false, flags: 0 });
    expect(await kit.eventsOf(guild.id, E.GuildMemberAdd)).toEqual([
      expect.objectContaining({ guild_id: guild.id, user: expect.objectContaining({ id: joiner.user.id }) }),
    ]);
    expect((await app.db.invite.findUniqueOrThrow({ where: { code } })).uses).toBe(1);
  });

  it("answers an existing member 200 with new_member false and counts no use", async () => {
    const { guild, code, joiner, accept } = await setup({ max_uses: 5 });
    expect((await accept()).body.new_member).toBe(true);
    const again = await accept();
    expect(again.status).toBe(200);
    expect(again.body.new_member).toBe(false);
    expect((await app.db.invite.findUniqueOrThrow({ where: { code } })).uses).toBe(1);
    expect(await kit.eventsOf(guild.id, E.GuildMemberAdd)).toHaveLength(1);
    // Someone who joined another way is a member all the same.
    const other = await setup();
    const member = await kit.addUser(other.guild.id);
    expect((await app.as(bearer(member.token)).post(`/invites/${other.code}`)).body.new_member).toBe(false);
    expect(joiner.user.id).not.toBe(member.user.id);
  });

  it("needs a Bearer token with guilds.join", async () => {
    const { owner, code, accept } = await setup();
    expect((await app.as().post(`/invites/${code}`)).body).toEqual(UNAUTHORIZED);
    expect((await app.as(`Bot ${owner.token}`).post(`/invites/${code}`)).status).toBe(401);
    const narrow = await makeUser(app.db, ["identify", "guilds"]);
    expect((await accept(narrow)).status).toBe(403);
  });

  it("refuses unknown, expired and used-up invites (10006)", async () => {
    const { guild, code, accept, api, text } = await setup({ max_age: 60 });
    expect((await accept(undefined, `x${newId()}`)).body).toEqual(UNKNOWN_INVITE);
    await kit.backdate(guild.id, code, 61_000);
    const expired = await accept();
    expect(expired.status).toBe(404);
    expect(expired.body).toEqual(UNKNOWN_INVITE);
    const used = await kit.code(api, text.id, { max_uses: 3 });
    await kit.updateInvite(guild.id, used, { uses: 3 });
    expect((await accept(undefined, used)).body).toEqual(UNKNOWN_INVITE);
    expect(await app.db.member.count({ where: { guildId: guild.id } })).toBe(1);
  });

  it("the use that reaches max_uses deletes the invite with Invite Delete", async () => {
    const { guild, text, code, accept } = await setup({ max_uses: 2 });
    expect((await accept()).status).toBe(200);
    expect(await kit.eventsOf(guild.id, E.InviteDelete)).toEqual([]);
    expect((await accept(await makeUser(app.db))).status).toBe(200);
    expect(await kit.eventsOf(guild.id, E.InviteDelete)).toEqual([{ channel_id: text.id, guild_id: guild.id, code }]);
    expect(await app.db.invite.count({ where: { code } })).toBe(0);
    expect((await accept(await makeUser(app.db))).body).toEqual(UNKNOWN_INVITE);
  });

  it("refuses while invites are paused: INVITES_DISABLED or invites_disabled_until ahead (403)", async () => {
    const { guild, accept } = await setup();
    await kit.setFeatures(guild.id, [GuildFeature.InvitesDisabled]);
    const paused = await accept();
    expect(paused.status).toBe(403);
    expect(paused.body.code).toBe(50001);
    await kit.setFeatures(guild.id, []);
    await kit.updateGuild(guild.id, { invitesDisabledUntil: new Date(Date.now() + HOUR_MS) });
    expect((await accept()).status).toBe(403);
    await kit.updateGuild(guild.id, { invitesDisabledUntil: new Date(Date.now() - 1000) });
    expect((await accept()).body.new_member).toBe(true);
  });

  it("refuses a banned user (403, 40007) without counting a use", async () => {
    const { guild, api, code, joiner, accept } = await setup({ max_uses: 3 });
    expect((await api.put(`/guilds/${guild.id}/bans/${joiner.user.id}`)).status).toBe(204);
    const res = await accept();
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 40007, message: "The user is banned from this guild." });
    expect((await app.db.invite.findUniqueOrThrow({ where: { code } })).uses).toBe(0);
    expect(await kit.memberRow(guild.id, joiner.user.id)).toBeNull();
  });

  it("admits only the invite's target users (403 for others)", async () => {
    const allowed = await makeUser(app.db);
    const { guild, joiner, accept } = await setup({ target_user_ids: [allowed.user.id] });
    const refused = await accept();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
    expect(await kit.memberRow(guild.id, joiner.user.id)).toBeNull();
    expect((await accept(allowed)).body.new_member).toBe(true);
  });

  it("grants the invite's roles that still exist", async () => {
    const base = await kit.setup();
    const kept = await kit.addRole(base.guild.id, 1);
    const dropped = await kit.addRole(base.guild.id, 2);
    const code = await kit.code(base.api, base.text.id, { role_ids: [kept.id, dropped.id] });
    expect((await base.api.delete(`/guilds/${base.guild.id}/roles/${dropped.id}`)).status).toBe(204);
    const joiner = await makeUser(app.db);
    expect((await app.as(bearer(joiner.token)).post(`/invites/${code}`)).status).toBe(200);
    const row = await kit.memberRow(base.guild.id, joiner.user.id);
    expect(row!.roles.map((role) => role.roleId)).toEqual([kept.id]);
    const [added] = await kit.eventsOf(base.guild.id, E.GuildMemberAdd);
    expect(added!.roles).toEqual([kept.id]);
  });

  it("records temporary membership", async () => {
    const { guild, joiner, accept } = await setup({ temporary: true });
    expect((await accept()).status).toBe(200);
    expect((await kit.memberRow(guild.id, joiner.user.id))!.temporary).toBe(true);
  });

  it("makes members of screening guilds pending", async () => {
    const { guild, joiner, accept } = await setup();
    await kit.setFeatures(guild.id, [GuildFeature.MemberVerificationGateEnabled]);
    expect((await accept()).status).toBe(200);
    expect((await kit.memberRow(guild.id, joiner.user.id))!.pending).toBe(true);
    const [added] = await kit.eventsOf(guild.id, E.GuildMemberAdd);
    expect(added!.pending).toBe(true);
  });

  it("marks a returning member DID_REJOIN", async () => {
    const { guild, api, joiner, accept } = await setup();
    expect((await accept()).status).toBe(200);
    expect((await api.delete(`/guilds/${guild.id}/members/${joiner.user.id}`)).status).toBe(204);
    expect((await accept()).body.new_member).toBe(true);
    expect((await kit.memberRow(guild.id, joiner.user.id))!.flags).toBe(GuildMemberFlags.DidRejoin);
  });
});

describe("vanity URLs", () => {
  async function vanitySetup() {
    const base = await kit.setup();
    await kit.setFeatures(base.guild.id, [GuildFeature.VanityURL]);
    return base;
  }
  const vanity = () => `v-${newId().slice(-8)}`;

  it("GET and PATCH /guilds/:guildId/vanity-url need MANAGE_GUILD; PATCH needs VANITY_URL (50101)", async () => {
    const { guild, api } = await kit.setup();
    expect((await api.get(`/guilds/${guild.id}/vanity-url`)).body).toEqual({ code: null, uses: 0 });
    const code = vanity();
    const noFeature = await api.patch(`/guilds/${guild.id}/vanity-url`, { code });
    expect(noFeature.status).toBe(400);
    expect(noFeature.body.code).toBe(50101);
    await kit.setFeatures(guild.id, [GuildFeature.VanityURL]);
    const set = await api.patch(`/guilds/${guild.id}/vanity-url`, { code });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ code, uses: 0 });
    expect((await api.get(`/guilds/${guild.id}/vanity-url`)).body).toEqual({ code, uses: 0 });
    expect((await kit.eventsOf(guild.id, E.GuildUpdate)).at(-1)).toMatchObject({ id: guild.id, vanity_url_code: code });
    const plain = await kit.addBotWithRole(guild.id, P.ManageChannels);
    expect((await plain.api.get(`/guilds/${guild.id}/vanity-url`)).body.code).toBe(50013);
    expect((await plain.api.patch(`/guilds/${guild.id}/vanity-url`, { code: vanity() })).body.code).toBe(50013);
    // Any member reads vanity_url_code on the guild.
    expect((await plain.api.get(`/guilds/${guild.id}`)).body.vanity_url_code).toBe(code);
    for (const bad of ["a", "has space", "x".repeat(33)]) expect((await api.patch(`/guilds/${guild.id}/vanity-url`, { code: bad })).body.code).toBe(50035);
    expect((await api.patch(`/guilds/${guild.id}/vanity-url`, { code: null })).body).toEqual({ code: null, uses: 0 });
    expect((await app.as().get(`/invites/${code}`)).body).toEqual(UNKNOWN_INVITE);
  });

  it("refuses a code another guild or an invite holds (50020)", async () => {
    const first = await vanitySetup();
    const second = await vanitySetup();
    const code = vanity();
    expect((await first.api.patch(`/guilds/${first.guild.id}/vanity-url`, { code })).status).toBe(200);
    const taken = await second.api.patch(`/guilds/${second.guild.id}/vanity-url`, { code });
    expect(taken.status).toBe(400);
    expect(taken.body.code).toBe(50020);
    const inviteCode = await kit.code(first.api, first.text.id);
    expect((await second.api.patch(`/guilds/${second.guild.id}/vanity-url`, { code: inviteCode })).body.code).toBe(50020);
    // Setting the same code again changes nothing.
    expect((await first.api.patch(`/guilds/${first.guild.id}/vanity-url`, { code })).body).toEqual({ code, uses: 0 });
  });

  it("GET /invites/{vanity} resolves it, and accepting counts vanity uses", async () => {
    const { guild, api, text } = await vanitySetup();
    const code = vanity();
    await api.patch(`/guilds/${guild.id}/vanity-url`, { code });
    const res = await app.as().get(`/invites/${code}`, { query: { with_counts: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code,
      guild: { id: guild.id, vanity_url_code: code },
      channel: { id: text.id },
      expires_at: null,
      approximate_member_count: 1,
    });
    for (const i of [1, 2]) {
      const user = await makeUser(app.db);
      const accepted = await app.as(bearer(user.token)).post(`/invites/${code}`);
      expect(accepted.body.new_member).toBe(true);
      expect((await api.get(`/guilds/${guild.id}/vanity-url`)).body).toEqual({ code, uses: i });
    }
    // Paused invites pause the vanity URL too.
    await kit.setFeatures(guild.id, [GuildFeature.VanityURL, GuildFeature.InvitesDisabled]);
    const paused = await app.as(bearer((await makeUser(app.db)).token)).post(`/invites/${code}`);
    expect(paused.status).toBe(403);
    expect((await api.get(`/guilds/${guild.id}/vanity-url`)).body.uses).toBe(2);
    // A vanity invite cannot be deleted like an invite.
    expect((await api.delete(`/invites/${code}`)).body).toEqual(UNKNOWN_INVITE);
  });
});
