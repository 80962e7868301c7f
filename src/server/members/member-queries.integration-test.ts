import { GatewayDispatchEvents } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { runChange } from "~/server/events/change.ts";
import { addMember, guildAsUpdated, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";
import { insertMemberRow, readJoinFacts, readMember, readMemberCard, readMemberRoleIds, updateMemberRow } from "./member-queries.ts";

const app = useTestApp();

// Member rows read through raw statements must be what Prisma reads: a column of a new type
// that a mapper misses (a boolean, a date, an integer) fails here on either database.
describe("member statements", () => {
  it("read and write member rows as Prisma does", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const { user } = await makeUser(app.db);
    const { user: joining } = await makeUser(app.db);
    const roles = await writeGuildState(app.db, guild.id, (tx) =>
      Promise.all(["a", "b"].map((name, i) => tx.role.create({ data: { id: `${guild.id}${i}`, guildId: guild.id, name, position: i + 1 } }))),
    );
    await addMember(
      app.db,
      guild.id,
      user.id,
      roles.map((role) => role.id),
    );
    const until = new Date(Date.now() + 3_600_000);

    const written = await runChange({ db: app.db, actor: null }, async ({ tx, sql, emit }) => {
      const updated = await updateMemberRow(sql, guild.id, user.id, { nick: "Nick", deaf: true, flags: 2, communicationDisabledUntil: until });
      const unchanged = await updateMemberRow(sql, guild.id, owner.user.id, {});
      const inserted = await insertMemberRow(sql, {
        guildId: guild.id,
        userId: joining.id,
        nick: null,
        mute: true,
        deaf: false,
        temporary: true,
        pending: true,
        flags: 1,
      });
      const again = await insertMemberRow(sql, {
        guildId: guild.id,
        userId: joining.id,
        nick: null,
        mute: false,
        deaf: false,
        temporary: false,
        pending: false,
        flags: 0,
      });
      const facts = await readJoinFacts(sql, guild.id, joining.id);
      const roleIds = await readMemberRoleIds(sql, guild.id, user.id);
      await emit(GatewayDispatchEvents.GuildUpdate, await guildAsUpdated(tx, guild.id));
      return { updated, unchanged, inserted, again, facts, roleIds };
    });

    const prismaRow = (userId: string) => app.db.member.findUniqueOrThrow({ where: { guildId_userId: { guildId: guild.id, userId } } });
    expect(written.updated).toEqual(await prismaRow(user.id));
    expect(written.updated).toMatchObject({ nick: "Nick", deaf: true, flags: 2, communicationDisabledUntil: until });
    expect(written.unchanged).toEqual(await prismaRow(owner.user.id));
    expect(written.inserted).toEqual(await prismaRow(joining.id));
    expect(written.inserted).toMatchObject({ mute: true, temporary: true, pending: true, flags: 1 });
    expect(written.again).toBeNull();
    expect(written.facts).toEqual({ isMember: true, isBanned: false, wasMember: false });
    const prismaMember = (await readMember(app.db, guild.id, user.id))!;
    expect(written.roleIds).toEqual(prismaMember.roles);

    const { id, username, globalName, avatar, bot, system, flags } = prismaMember.user;
    const read = await readMemberCard(app.db, guild.id, user.id);
    expect(read).toEqual({
      ...prismaMember,
      user: { id, username, globalName, avatar, bot, system, flags },
      roles: expect.arrayContaining(prismaMember.roles),
    });
    expect(read!.roles).toHaveLength(2);
    expect(await readMemberCard(app.db, guild.id, owner.user.id)).toMatchObject({ roles: [], user: { id: owner.user.id, bot: true } });
    expect(await readMemberCard(app.db, guild.id, "0")).toBeNull();
  });
});
