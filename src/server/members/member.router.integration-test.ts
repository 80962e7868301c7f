import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeGuild, makeUser } from "~/test/factories.ts";
import { memberKit } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

// What the moderator's dashboard reads beyond the REST objects: per-member decisions with
// their reasons, permission sources, and pages of members and bans.

const app = useTestApp();
const kit = memberKit(app);

/** A guild owned by a dashboard user, a moderator below them and a plain member. */
async function moderatedGuild() {
  const owner = await makeUser(app.db);
  const guild = await makeGuild(app.db, dashboardActor(owner.user.id));
  const modRole = await kit.addRole(guild.id, 2, { name: "Mods", permissions: P.KickMembers | P.BanMembers | P.ManageRoles });
  const highRole = await kit.addRole(guild.id, 3, { name: "Admins", permissions: P.Administrator });
  const moderator = await makeUser(app.db);
  await addMember(app.db, guild.id, moderator.user.id, [modRole.id]);
  const plain = await makeUser(app.db);
  await addMember(app.db, guild.id, plain.user.id);
  return {
    owner,
    guild,
    modRole,
    highRole,
    moderator,
    plain,
    asOwner: createCaller({ db: app.db, userId: owner.user.id }),
    asMod: createCaller({ db: app.db, userId: moderator.user.id }),
  };
}

describe("member.get", () => {
  it("says which roles the viewer cannot give and why, and where each permission comes from", async () => {
    const { guild, modRole, highRole, plain, asMod, asOwner } = await moderatedGuild();
    const details = await asMod.member.get({ guildId: guild.id, userId: plain.user.id });
    const byName = new Map(details.roles.map((role) => [role.name, role]));
    expect(byName.get("Admins")?.disabledReason).toBe("This role is not below your highest role.");
    expect(byName.get("Mods")?.disabledReason).toBe("This role is not below your highest role.");
    expect(details.denials).toMatchObject({ kick: null, ban: null, timeout: "Needs Time out members." });

    await asOwner.member.modify({ guildId: guild.id, userId: plain.user.id, body: { roles: [modRole.id] } });
    const sources = (await asOwner.member.get({ guildId: guild.id, userId: plain.user.id })).permissions;
    expect(sources.find((s) => s.permission === "KICK_MEMBERS")).toEqual({ permission: "KICK_MEMBERS", bit: P.KickMembers.toString(), sources: ["Mods"] });
    expect(sources.find((s) => s.permission === "VIEW_CHANNEL")?.sources).toEqual(["@everyone"]);
    expect(sources.some((s) => s.permission === "ADMINISTRATOR")).toBe(false);
    // One row per permission bit, even where the platform has a deprecated alias.
    expect(new Set(sources.map((s) => s.bit)).size).toBe(sources.length);

    await asOwner.member.modify({ guildId: guild.id, userId: plain.user.id, body: { roles: [highRole.id] } });
    const admin = (await asOwner.member.get({ guildId: guild.id, userId: plain.user.id })).permissions;
    expect(admin.find((s) => s.permission === "BAN_MEMBERS")?.sources).toEqual(["Administrator (Admins)"]);
  });

  it("refuses the moderator acting on the owner, with the reason", async () => {
    const { guild, owner, asMod } = await moderatedGuild();
    const details = await asMod.member.get({ guildId: guild.id, userId: owner.user.id });
    expect(details.isOwner).toBe(true);
    expect(details.denials.kick).toBe("The guild owner cannot be moderated.");
    expect(details.permissions.every((s) => s.sources.join() === "Guild owner")).toBe(true);
  });
});

describe("member.list and member.bans", () => {
  it("page through members and bans with a cursor that ends", async () => {
    const { guild, asOwner } = await moderatedGuild();
    const first = await asOwner.member.list({ guildId: guild.id, limit: 2 });
    expect(first.rows).toHaveLength(2);
    expect(first.nextAfter).toBe(first.rows[1]!.member.user.id);
    const rest = await asOwner.member.list({ guildId: guild.id, limit: 2, after: first.nextAfter! });
    expect(rest.rows).toHaveLength(1);
    expect(rest.nextAfter).toBeNull();

    const banned = await Promise.all([makeUser(app.db), makeUser(app.db), makeUser(app.db)]);
    for (const { user } of banned) await asOwner.member.ban({ guildId: guild.id, userId: user.id, reason: "Spam" });
    const page = await asOwner.member.bans({ guildId: guild.id, limit: 2 });
    expect(page.bans.map((b) => b.reason)).toEqual(["Spam", "Spam"]);
    const next = await asOwner.member.bans({ guildId: guild.id, limit: 2, after: page.nextAfter! });
    expect(next.bans).toHaveLength(1);
    expect(next.nextAfter).toBeNull();
    expect(new Set([...page.bans, ...next.bans].map((b) => b.user.id))).toEqual(new Set(banned.map((b) => b.user.id)));
  });
});

describe("member.list and member.bans searches", () => {
  /** A member with these names, as users type them. */
  async function namedMember(guildId: string, username: string, globalName: string | null, nick: string | null = null) {
    const user = await app.db.user.create({ data: { id: newId(), username, globalName } });
    await addMember(app.db, guildId, user.id);
    if (nick) await kit.updateMember(guildId, user.id, { nick });
    return user;
  }

  it("find members whose username, global name or nickname contains every word typed, ignoring case, or by id", async () => {
    const { guild, asOwner } = await moderatedGuild();
    const otter = await namedMember(guild.id, "brave_otter", "Brave Otter", "Otto the Great");
    const emilie = await namedMember(guild.id, "quiet_falcon", "Émilie Falcon");
    await namedMember(guild.id, "a_b", null);
    await namedMember(guild.id, "axb", null);
    const found = async (search: string) => (await asOwner.member.list({ guildId: guild.id, search })).rows.map((row) => row.member.user.username).sort();

    expect(await found("OTTER")).toEqual(["brave_otter"]);
    expect(await found("great")).toEqual(["brave_otter"]);
    expect(await found("  brave   great ")).toEqual(["brave_otter"]);
    expect(await found("brave falcon")).toEqual([]);
    expect(await found("milie")).toEqual(["quiet_falcon"]);
    expect(await found("émilie")).toEqual(["quiet_falcon"]);
    expect(await found("ÉMILIE")).toEqual(["quiet_falcon"]);
    expect(await found("a_")).toEqual(["a_b"]);
    expect(await found(otter.id)).toEqual(["brave_otter"]);
    expect(await found(emilie.id.slice(0, 8))).toEqual([]);
  });

  it("find bans by any part of the banned user's names, or by id", async () => {
    const { guild, asOwner } = await moderatedGuild();
    const spammer = await app.db.user.create({ data: { id: newId(), username: "promo_account", globalName: "Spam Bot 3000" } });
    const other = await app.db.user.create({ data: { id: newId(), username: "troll", globalName: null } });
    for (const user of [spammer, other]) await asOwner.member.ban({ guildId: guild.id, userId: user.id });
    const found = async (search: string) => (await asOwner.member.bans({ guildId: guild.id, search })).bans.map((ban) => ban.user.username);

    expect(await found("bot 3000")).toEqual(["promo_account"]);
    expect(await found("ACCOUNT")).toEqual(["promo_account"]);
    expect(await found("rol")).toEqual(["troll"]);
    expect(await found(other.id)).toEqual(["troll"]);
    expect(await found("nobody")).toEqual([]);
  });
});
