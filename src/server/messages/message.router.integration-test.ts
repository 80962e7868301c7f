import { AuditLogEvent, ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { useTestApp } from "~/test/test-app.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { sendMessage } from "./message.service.ts";

const app = useTestApp();
const kit = threadKit(app);

const READER = P.ViewChannel | P.ReadMessageHistory | P.SendMessages;

/** A guild whose @everyone may do nothing, with its first text channel. */
async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, 0n);
  return base;
}

async function reader(guildId: string, permissions = READER) {
  const role = await kit.addRole(guildId, 3, { permissions });
  const member = await kit.addUser(guildId, [role.id]);
  return { ...member, caller: createCaller({ db: app.db, userId: member.user.id }) };
}

describe("message router (dashboard)", () => {
  it("pages a channel newest first with the content a bot without the intent would not see, and names the mentioned members, role and channel", async () => {
    const { guild, text, api } = await setup();
    const role = await kit.addRole(guild.id, 2, { name: "Ops" });
    const posted: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      const res = await api.post(`/channels/${text.id}/messages`, { content: `update ${n} for <@&${role.id}> in <#${text.id}>` });
      posted.push(res.body.id as string);
    }
    const { caller, user } = await reader(guild.id);
    await kit.updateMember(guild.id, user.id, { nick: "Ada" });
    const outsider = await kit.addUser((await kit.setup()).guild.id);
    await api.post(`/channels/${text.id}/messages`, { content: `hi <@${user.id}> and <@${outsider.user.id}>`, allowed_mentions: { parse: [] } });
    const bot = await kit.addBotWithRole(guild.id, READER);
    expect((await bot.api.get(`/channels/${text.id}/messages?limit=1`)).body[0].content).toBe("");

    const greeting = await caller.message.list({ channelId: text.id, limit: 1 });
    // Named even when not pinged; someone outside the guild stays unnamed.
    expect(greeting.messages[0]!.mentions).toEqual([]);
    expect(greeting.users).toEqual([{ id: user.id, name: "Ada" }]);

    const first = await caller.message.list({ channelId: text.id, limit: 2, cursor: greeting.nextCursor });
    expect(first.blockedReason).toBeNull();
    expect(first.messages.map((m) => m.content)).toEqual([`update 5 for <@&${role.id}> in <#${text.id}>`, `update 4 for <@&${role.id}> in <#${text.id}>`]);
    expect(first.nextCursor).toBe(posted[3]);
    expect(first.roles).toContainEqual({ id: role.id, name: "Ops", color: 0 });
    expect(first.channels).toContainEqual({ id: text.id, name: expect.any(String) as string });
    const second = await caller.message.list({ channelId: text.id, limit: 2, cursor: first.nextCursor });
    expect(second.messages.map((m) => m.id)).toEqual([posted[2], posted[1]]);
    const last = await caller.message.list({ channelId: text.id, limit: 2, cursor: second.nextCursor });
    expect(last.messages.map((m) => m.id)).toEqual([posted[0]]);
    expect(last.nextCursor).toBeNull();
  });

  it("links a message to the public thread it started, never to a private thread", async () => {
    const { guild, text, api } = await setup();
    const starter = (await api.post(`/channels/${text.id}/messages`, { content: "shall we plan?" })).body.id as string;
    const hidden = (await api.post(`/channels/${text.id}/messages`, { content: "secret" })).body.id as string;
    await kit.addChannel(guild.id, ChannelType.PublicThread, { id: starter, parentId: text.id, name: "Planning" });
    await kit.addChannel(guild.id, ChannelType.PrivateThread, { id: hidden, parentId: text.id, name: "Secret plans" });
    const { caller } = await reader(guild.id);
    const { messages } = await caller.message.list({ channelId: text.id });
    expect(messages.map((m) => [m.content, m.thread])).toEqual([
      ["secret", null],
      ["shall we plan?", { id: starter, name: "Planning" }],
    ]);
  });

  it("shows a webhook's message under the name and avatar it posted with", async () => {
    const { guild, text, api } = await setup();
    const hook = (await api.post(`/channels/${text.id}/webhooks`, { name: "Deploys" })).body as { id: string; token: string };
    const execute = (body: object) => app.as().post(`/webhooks/${hook.id}/${hook.token}?wait=true`, body);
    expect((await execute({ content: "plain" })).status).toBe(200);
    expect((await execute({ content: "dressed", username: "CI", avatar_url: "https://example.com/ci.png" })).status).toBe(200);
    const { caller } = await reader(guild.id);
    const { messages } = await caller.message.list({ channelId: text.id });
    expect(messages.map((m) => [m.author.username, m.author.bot, m.avatarUrl])).toEqual([
      ["CI", true, "https://example.com/ci.png"],
      ["Deploys", true, null],
    ]);
  });

  it("says why a member without Read Message History sees no messages, and refuses a channel they cannot view", async () => {
    const { guild, text, api } = await setup();
    await api.post(`/channels/${text.id}/messages`, { content: "hidden history" });
    const { caller } = await reader(guild.id, P.ViewChannel);
    expect(await caller.message.list({ channelId: text.id })).toMatchObject({
      blockedReason: "Needs Read Message History in this channel",
      messages: [],
      nextCursor: null,
    });
    const { caller: outsider } = await reader(guild.id, 0n);
    await expect(outsider.message.list({ channelId: text.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("lets the author delete their own message and a Manage Messages holder anyone's, audited with the reason", async () => {
    const { guild, text, api } = await setup();
    const bots = (await api.post(`/channels/${text.id}/messages`, { content: "from the bot" })).body.id as string;
    const author = await reader(guild.id);
    const own = await sendMessage({ db: app.db, actor: dashboardActor(author.user.id) }, { channelId: text.id, body: { content: "mine" }, files: [] });

    const view = await author.caller.message.list({ channelId: text.id });
    expect(view.canManageMessages).toBe(false);
    expect(view.messages.map((m) => [m.content, m.canDelete])).toEqual([
      ["mine", true],
      ["from the bot", false],
    ]);
    await expect(author.caller.message.delete({ channelId: text.id, messageId: bots })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await author.caller.message.delete({ channelId: text.id, messageId: own.id });
    expect(await kit.auditOf(guild.id, AuditLogEvent.MessageDelete)).toEqual([]);

    const moderator = await reader(guild.id, READER | P.ManageMessages);
    expect((await moderator.caller.message.list({ channelId: text.id })).messages.map((m) => m.canDelete)).toEqual([true]);
    await moderator.caller.message.delete({ channelId: text.id, messageId: bots, reason: "spam" });
    expect((await moderator.caller.message.list({ channelId: text.id })).messages).toEqual([]);
    expect((await kit.auditOf(guild.id, AuditLogEvent.MessageDelete))[0]).toMatchObject({ userId: moderator.user.id, reason: "spam" });
    await expect(moderator.caller.message.delete({ channelId: text.id, messageId: bots })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
