import { AuditLogEvent, GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { readImage } from "~/server/images/image.service.ts";
import { DEFAULT_EVERYONE_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { writeGuildState } from "~/test/factories.ts";
import { MISSING_PERMISSIONS, memberKit, PNG } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = memberKit(app);

/** A guild and a bot member with no roles of its own. */
async function setup() {
  const base = await kit.setup();
  const self = await kit.addBot(base.guild.id);
  return {
    ...base,
    self,
    patchMe: (body: unknown, reason?: string) =>
      self.api.patch(`/guilds/${base.guild.id}/members/@me`, body, reason ? { headers: { "X-Audit-Log-Reason": reason } } : {}),
  };
}

async function setEveryone(guildId: string, permissions: bigint) {
  await writeGuildState(app.db, guildId, (tx) => tx.role.update({ where: { id: guildId }, data: { permissions } }));
}

describe("PATCH /guilds/:guildId/members/@me", () => {
  it("sets the bot's own nickname with CHANGE_NICKNAME, with event and audit entry", async () => {
    const { guild, self, patchMe } = await setup();
    const res = await patchMe({ nick: "Me" }, "rename myself");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ nick: "Me", user: { id: self.user.id } });
    expect((await kit.eventsOf(guild.id, E.GuildMemberUpdate)).at(-1)).toMatchObject({ nick: "Me", user: { id: self.user.id } });
    expect(await kit.auditOf(guild.id, AuditLogEvent.MemberUpdate)).toEqual([
      { userId: self.user.id, targetId: self.user.id, reason: "rename myself", changes: [{ key: "nick", new_value: "Me" }], options: null },
    ]);
    expect((await patchMe({ nick: null })).body.nick).toBeNull();
  });

  it("needs CHANGE_NICKNAME, or MANAGE_NICKNAMES, for the nickname", async () => {
    const { guild, self, patchMe } = await setup();
    await setEveryone(guild.id, DEFAULT_EVERYONE_PERMISSIONS & ~P.ChangeNickname);
    const refused = await patchMe({ nick: "Me" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(MISSING_PERMISSIONS);
    // Other fields need no permission.
    expect((await patchMe({ bio: "hello" })).status).toBe(200);
    const managers = await kit.addRole(guild.id, 1, { permissions: P.ManageNicknames });
    await writeGuildState(app.db, guild.id, (tx) => tx.memberRole.create({ data: { guildId: guild.id, userId: self.user.id, roleId: managers.id } }));
    expect((await patchMe({ nick: "Me" })).body.nick).toBe("Me");
  });

  it("stores a guild avatar served from the CDN, and clears it with null", async () => {
    const { guild, owner, self, patchMe } = await setup();
    const res = await patchMe({ avatar: PNG });
    expect(res.status).toBe(200);
    expect(res.body.avatar).toMatch(/^[0-9a-f]{32}$/);
    const image = await readImage(app.db, `/cdn/guilds/${guild.id}/users/${self.user.id}/avatars/${res.body.avatar}.png`);
    expect(image?.contentType).toBe("image/png");
    expect(Buffer.from(image!.data).equals(Buffer.from(PNG.split(",")[1]!, "base64"))).toBe(true);
    expect(await readImage(app.db, `/cdn/guilds/${guild.id}/users/${owner.user.id}/avatars/${res.body.avatar}.png`)).toBeNull();
    expect((await kit.auditOf(guild.id, AuditLogEvent.MemberUpdate))[0]!.changes).toEqual([{ key: "avatar_hash", new_value: res.body.avatar }]);
    expect((await self.api.get(`/guilds/${guild.id}/members/${self.user.id}`)).body.avatar).toBe(res.body.avatar);
    expect((await patchMe({ avatar: null })).body.avatar).toBeNull();
  });

  it("stores a guild banner and a bio", async () => {
    const { guild, self, patchMe } = await setup();
    const res = await patchMe({ banner: PNG, bio: "About me" });
    expect(res.status).toBe(200);
    expect(res.body.banner).toMatch(/^[0-9a-f]{32}$/);
    expect(await readImage(app.db, `/cdn/guilds/${guild.id}/users/${self.user.id}/banners/${res.body.banner}.png`)).not.toBeNull();
    expect((await kit.memberRow(guild.id, self.user.id))!.bio).toBe("About me");
    await patchMe({ bio: null });
    expect((await kit.memberRow(guild.id, self.user.id))!.bio).toBeNull();
  });

  it("refuses images that are not images and overlong fields (50035)", async () => {
    const { patchMe } = await setup();
    for (const body of [{ avatar: "data:image/png;base64,aGVsbG8=" }, { avatar: "not a data uri" }, { bio: "x".repeat(191) }, { nick: "x".repeat(33) }]) {
      const res = await patchMe(body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.body.code).toBe(50035);
    }
  });

  it("is for members of the guild", async () => {
    const { guild } = await setup();
    const outsider = await kit.setup();
    const res = await outsider.api.patch(`/guilds/${guild.id}/members/@me`, { nick: "x" });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(50001);
  });
});

describe("PATCH /guilds/:guildId/members/@me/nick (deprecated)", () => {
  it("answers with the nickname only and fires Guild Member Update", async () => {
    const { guild, self } = await setup();
    const res = await self.api.patch(`/guilds/${guild.id}/members/@me/nick`, { nick: "Old way" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ nick: "Old way" });
    expect((await kit.eventsOf(guild.id, E.GuildMemberUpdate)).at(-1)).toMatchObject({ nick: "Old way", user: { id: self.user.id } });
    expect((await self.api.patch(`/guilds/${guild.id}/members/@me/nick`, { nick: null })).body).toEqual({ nick: null });
  });

  it("needs CHANGE_NICKNAME", async () => {
    const { guild, self } = await setup();
    await setEveryone(guild.id, 0n);
    expect((await self.api.patch(`/guilds/${guild.id}/members/@me/nick`, { nick: "x" })).body).toEqual(MISSING_PERMISSIONS);
  });
});
