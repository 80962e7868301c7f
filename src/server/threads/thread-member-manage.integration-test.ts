import { ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { makeUser } from "~/test/factories.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);

/** A guild where @everyone may view and talk in threads; a ticket bot that opens private threads; a person asking for help. */
async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, P.ViewChannel | P.SendMessagesInThreads);
  const ticketBot = await kit.addBotWithRole(base.guild.id, P.CreatePrivateThreads | P.SendMessagesInThreads);
  const person = await kit.addUser(base.guild.id);
  const ticket = (await ticketBot.api.post(`/channels/${base.text.id}/threads`, { name: "ticket-1", type: ChannelType.PrivateThread, invitable: false })).body;
  return { ...base, ticketBot, person, ticket };
}

describe("others' thread memberships", () => {
  it("adds a person to a private ticket thread, reads them back with their member, and removes them", async () => {
    const { guild, api, owner, ticketBot, person, ticket } = await setup();
    const path = `/channels/${ticket.id}/thread-members/${person.user.id}`;
    // The starter is in it; not invitable, so only moderators add others: the owner, who manages threads.
    expect((await ticketBot.api.put(path)).body).toMatchObject(MISSING_PERMISSIONS);
    expect((await api.put(`/channels/${ticket.id}/thread-members/%40me`)).status).toBe(204);
    expect((await api.put(path)).status).toBe(204);
    expect((await api.put(path)).status).toBe(204);

    const added = (await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadMembersUpdate)).at(-1);
    expect(added).toMatchObject({ id: ticket.id, guild_id: guild.id, member_count: 3, added_members: [{ id: ticket.id, user_id: person.user.id, flags: 0 }] });
    const one = await api.get(`${path}?with_member=true`);
    expect(one.body).toMatchObject({ id: ticket.id, user_id: person.user.id, member: { user: { id: person.user.id } } });
    expect((await api.get(path)).body).not.toHaveProperty("member");

    // Listing needs the GUILD_MEMBERS intent enabled for the bot's application.
    expect((await api.get(`/channels/${ticket.id}/thread-members`)).body).toMatchObject(MISSING_ACCESS);
    await setApprovedIntents({ db: app.db, actor: null }, owner.application.id, ["GUILD_MEMBERS"], true);
    const all = (await api.get(`/channels/${ticket.id}/thread-members`)).body.map((m: { user_id: string }) => m.user_id);
    expect(all).toEqual([ticketBot.user.id, owner.user.id, person.user.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
    expect((await api.get(`/channels/${ticket.id}/thread-members?after=${all[0]}&limit=1`)).body.map((m: { user_id: string }) => m.user_id)).toEqual([all[1]]);

    // The starter of a private thread may remove its members.
    expect((await ticketBot.api.delete(path)).status).toBe(204);
    expect((await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadMembersUpdate)).at(-1)).toMatchObject({
      removed_member_ids: [person.user.id],
      member_count: 2,
    });
    expect((await api.get(path)).body).toMatchObject({ code: 10007 });
  });

  it("refuses users not in the guild, those who cannot see the channel, and archived threads", async () => {
    const { api, guild, text, ticketBot } = await setup();
    const open = (await api.post(`/channels/${text.id}/threads`, { name: "open", type: ChannelType.PublicThread })).body;
    const stranger = await makeUser(app.db);
    expect((await ticketBot.api.put(`/channels/${open.id}/thread-members/${stranger.user.id}`)).body).toMatchObject({ code: 10007 });
    expect((await ticketBot.api.put(`/channels/${open.id}/thread-members/1`)).body).toMatchObject({ code: 10013 });

    const blind = await kit.addBotWithRole(guild.id, 0n);
    await kit.addOverwrite(text.id, guild.id, { id: blind.user.id, type: 1, deny: P.ViewChannel });
    expect((await ticketBot.api.put(`/channels/${open.id}/thread-members/${blind.user.id}`)).body).toMatchObject(MISSING_ACCESS);
    // Removing others is for those who manage threads.
    expect((await api.put(`/channels/${open.id}/thread-members/${ticketBot.user.id}`)).status).toBe(204);
    expect((await ticketBot.api.delete(`/channels/${open.id}/thread-members/${ticketBot.user.id}`)).body).toMatchObject(MISSING_PERMISSIONS);

    expect((await api.patch(`/channels/${open.id}`, { archived: true })).status).toBe(200);
    expect((await api.put(`/channels/${open.id}/thread-members/${ticketBot.user.id}`)).body).toMatchObject({ code: 50083 });
    expect((await api.delete(`/channels/${open.id}/thread-members/${ticketBot.user.id}`)).body).toMatchObject({ code: 50083 });
  });
});
