import { GatewayDispatchEvents } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { runChange } from "~/server/events/change.ts";
import { updateGuildRow } from "~/server/guilds/guild-queries.ts";
import { toMemberFields } from "~/server/members/member.dto.ts";
import { readMember, readMemberFields } from "~/server/members/member-queries.ts";
import { readUserCards } from "~/server/users/user-queries.ts";
import { addMember, guildAsUpdated, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();

// Rows read through a change's statements must be what Prisma reads: a column of a new type
// that a mapper misses (a boolean, a date, an integer) fails here on either database.
describe("a change's statements", () => {
  it("read and write rows as Prisma does", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const { user } = await makeUser(app.db);
    await addMember(app.db, guild.id, user.id, []);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.member.update({
        where: { guildId_userId: { guildId: guild.id, userId: user.id } },
        data: { communicationDisabledUntil: new Date(Date.now() + 60_000), deaf: true },
      }),
    );
    const until = new Date(Date.now() + 3_600_000);

    const read = await runChange({ db: app.db, actor: null }, async ({ tx, sql, emit }) => {
      const updated = await updateGuildRow(sql, guild.id, { description: "Quiet", invitesDisabledUntil: until, premiumProgressBarEnabled: true });
      await emit(GatewayDispatchEvents.GuildUpdate, await guildAsUpdated(tx, guild.id));
      return {
        guild: updated,
        members: await readMemberFields(sql, guild.id, [user.id, owner.user.id, "0"]),
        users: await readUserCards(sql, [user.id, owner.user.id]),
      };
    });

    expect(read.guild).toEqual(await app.db.guild.findUniqueOrThrow({ where: { id: guild.id } }));
    expect(read.guild).toMatchObject({ description: "Quiet", invitesDisabledUntil: until, premiumProgressBarEnabled: true });
    expect(read.members.get(user.id)).toEqual(toMemberFields((await readMember(app.db, guild.id, user.id))!));
    expect(read.members.get(owner.user.id)).toEqual(toMemberFields((await readMember(app.db, guild.id, owner.user.id))!));
    expect(read.members.has("0")).toBe(false);
    for (const id of [user.id, owner.user.id]) {
      const { username, globalName, avatar, bot, system, flags } = await app.db.user.findUniqueOrThrow({ where: { id } });
      expect(read.users.get(id)).toEqual({ id, username, globalName, avatar, bot, system, flags });
    }
  });
});
