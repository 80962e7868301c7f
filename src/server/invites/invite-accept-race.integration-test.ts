import { ChannelType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

// Uses are counted with one conditional UPDATE: concurrent acceptances never pass max_uses.

const app = useTestApp();

async function guildWithInvite(body: Record<string, unknown>) {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const api = app.as(bot(owner.token));
  const channels = await api.get<{ id: string; type: number }[]>(`/guilds/${guild.id}/channels`);
  const text = channels.body.find((channel) => channel.type === ChannelType.GuildText)!;
  const invite = await api.post(`/channels/${text.id}/invites`, body);
  expect(invite.status).toBe(200);
  return { guild, api, code: invite.body.code as string };
}

describe("accepting an invite at once", () => {
  it("admits exactly 10 of 100 users accepting an invite with max_uses 10 together", async () => {
    const { guild, code } = await guildWithInvite({ max_uses: 10, unique: true });
    const users = await Promise.all(Array.from({ length: 100 }, () => makeUser(app.db)));
    const answers = await Promise.all(users.map((user) => app.as(bearer(user.token)).post(`/invites/${code}`)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 404)).toBe(true);
    const joined = await app.db.member.count({ where: { guildId: guild.id, userId: { in: users.map((u) => u.user.id) } } });
    expect(joined).toBe(10);
    // The tenth use deleted the invite.
    expect((await app.as().get(`/invites/${code}`)).body.code).toBe(10006);
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "INVITE_DELETE" } })).toBe(1);
  });

  it("counts one use when the same user accepts five times at once", async () => {
    const { code } = await guildWithInvite({ max_uses: 5, unique: true });
    const { token } = await makeUser(app.db);
    const answers = await Promise.all(Array.from({ length: 5 }, () => app.as(bearer(token)).post(`/invites/${code}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.new_member === true)).toHaveLength(1);
    const invite = await app.db.invite.findUniqueOrThrow({ where: { code } });
    expect(invite.uses).toBe(1);
  });
});
