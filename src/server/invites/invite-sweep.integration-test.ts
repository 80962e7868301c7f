import { ChannelType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { makeBot, makeGuild, writeGuildState } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { sweepExpiredInvites } from "./invite-sweep.ts";

const app = useTestApp();
const HOUR = 60 * 60 * 1000;

describe("the expired-invite sweep", () => {
  it("deletes invites past max_age once, with one Invite Delete each, even with three instances sweeping at once", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const api = app.as(bot(owner.token));
    const channels = await api.get<{ id: string; type: number }[]>(`/guilds/${guild.id}/channels`);
    const text = channels.body.find((channel) => channel.type === ChannelType.GuildText)!;
    const codes: string[] = [];
    for (const max_age of [3600, 3600, 3600, 0, 86400]) codes.push((await api.post(`/channels/${text.id}/invites`, { max_age, unique: true })).body.code);

    // Two hours later the three one-hour invites are expired; reads already refuse them.
    const later = new Date(Date.now() + 2 * HOUR);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.invite.updateMany({ where: { code: { in: codes.slice(0, 3) } }, data: { expiresAt: new Date(Date.now() - HOUR) } }),
    );
    expect((await app.as().get(`/invites/${codes[0]}`)).body.code).toBe(10006);

    const counts = await Promise.all([1, 2, 3].map(() => sweepExpiredInvites(app.db, later)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    const left = await app.db.invite.findMany({ where: { guildId: guild.id }, select: { code: true } });
    expect(left.map((invite) => invite.code).sort()).toEqual(codes.slice(3).sort());
    const deletes = await app.db.event.findMany({ where: { guildId: guild.id, type: "INVITE_DELETE" } });
    expect(deletes.map((event) => (JSON.parse(event.data) as { code: string }).code).sort()).toEqual(codes.slice(0, 3).sort());
    expect(await sweepExpiredInvites(app.db, later)).toBe(0);
  });
});
