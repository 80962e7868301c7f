import { describe, expect, it } from "vitest";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();

describe("direct messages in the dashboard", () => {
  it("lists a person's DMs newest first, reads one oldest first, answers in it, and says why when they cannot", async () => {
    const helper = await makeBot(app.db);
    const quiet = await makeBot(app.db);
    const guild = await makeGuild(app.db, helper.actor);
    const person = await makeUser(app.db);
    await addMember(app.db, guild.id, person.user.id);
    await addMember(app.db, guild.id, quiet.user.id);
    const caller = createCaller({ db: app.db, userId: person.user.id });
    expect(await caller.dm.list()).toEqual([]);

    const open = async (token: string) => (await app.as(bot(token)).post("/users/@me/channels", { recipient_id: person.user.id })).body.id as string;
    const quietDm = await open(quiet.token);
    const helperDm = await open(helper.token);
    await app.as(bot(helper.token)).post(`/channels/${helperDm}/messages`, { content: "Welcome! Read #rules first." });

    const listed = await caller.dm.list();
    expect(listed.map((dm) => [dm.id, dm.recipients[0]!.id, dm.sendBlocked])).toEqual([
      [helperDm, helper.user.id, null],
      [quietDm, quiet.user.id, null],
    ]);

    await caller.dm.send({ channelId: helperDm, content: "Done, thanks" });
    expect((await caller.dm.messages({ channelId: helperDm })).map((m) => [m.author.id, m.content])).toEqual([
      [helper.user.id, "Welcome! Read #rules first."],
      [person.user.id, "Done, thanks"],
    ]);

    // Once they share no server, the page says why instead of offering to send, and the service refuses alike.
    await writeGuildState(app.db, guild.id, (tx) => tx.member.delete({ where: { guildId_userId: { guildId: guild.id, userId: person.user.id } } }));
    const blocked = (await caller.dm.list()).find((dm) => dm.id === helperDm)!;
    expect(blocked.sendBlocked).toMatch(/shares no server/);
    await expect(caller.dm.send({ channelId: helperDm, content: "hello?" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller.dm.send({ channelId: helperDm, content: "   " })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    // Another person's DM is not theirs to read.
    const other = createCaller({ db: app.db, userId: (await makeUser(app.db)).user.id });
    await expect(other.dm.messages({ channelId: helperDm })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
