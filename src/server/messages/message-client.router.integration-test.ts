import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createCaller } from "~/server/trpc/root.ts";
import { PNG } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { threadKit } from "~/test/thread-kit.ts";

// The Messages view as a client: a member posts, replies, edits, reacts, pins and starts a
// thread through the services REST uses, and the page says why where the rules refuse them.

const app = useTestApp();
const kit = threadKit(app);

const MEMBER = P.ViewChannel | P.ReadMessageHistory | P.SendMessages | P.AttachFiles | P.AddReactions;
const MODERATOR = MEMBER | P.ManageMessages | P.PinMessages | P.CreatePublicThreads;

async function person(guildId: string, permissions: bigint) {
  const role = await kit.addRole(guildId, 3, { permissions });
  const member = await kit.addUser(guildId, [role.id]);
  return { ...member, caller: createCaller({ db: app.db, userId: member.user.id }) };
}

async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, 0n);
  return base;
}

describe("the Messages view as a client", () => {
  it("posts with a file, replies, edits its own, reacts, pins and starts a thread", async () => {
    const { guild, text } = await setup();
    const { caller } = await person(guild.id, MODERATOR);
    const posted = await caller.message.send({
      channelId: text.id,
      body: { content: "Release notes" },
      files: [{ filename: "notes.png", data: PNG }],
    });
    expect(posted.attachments).toMatchObject([{ filename: "notes.png", content_type: "image/png" }]);
    const reply = await caller.message.send({ channelId: text.id, body: { content: "Looks good", message_reference: { message_id: posted.id } } });
    expect(reply.message_reference).toMatchObject({ message_id: posted.id });
    await caller.message.edit({ channelId: text.id, messageId: reply.id, body: { content: "Looks great" } });

    await caller.message.react({ channelId: text.id, messageId: posted.id, emoji: "👍" });
    await caller.message.pin({ channelId: text.id, messageId: posted.id });
    const thread = await caller.thread.startFromMessage({ channelId: text.id, messageId: posted.id, body: { name: "Release" } });
    expect(thread.id).toBe(posted.id);

    const page = await caller.message.list({ channelId: text.id });
    expect(page.denials).toEqual({ send: null, attach: null, reply: null, react: null, joinReaction: null, pin: null });
    expect(page.startThread).toEqual({ denial: null });
    const shown = page.messages.find((m) => m.id === posted.id)!;
    expect(shown).toMatchObject({
      pinned: true,
      reactions: [{ count: 1, me: true, emoji: { id: null, name: "👍" } }],
      thread: { id: posted.id, name: "Release" },
    });
    expect(page.messages.find((m) => m.id === reply.id)).toMatchObject({ content: "Looks great", denials: { edit: null, delete: null } });

    await caller.message.unreact({ channelId: text.id, messageId: posted.id, emoji: "👍" });
    await caller.message.unpin({ channelId: text.id, messageId: posted.id });
    expect((await caller.message.list({ channelId: text.id })).messages.find((m) => m.id === posted.id)).toMatchObject({ pinned: false });
  });

  it("says why a member without Send Messages cannot post, and refuses them as REST would", async () => {
    const { guild, text } = await setup();
    const moderator = await person(guild.id, MODERATOR);
    const posted = await moderator.caller.message.send({ channelId: text.id, body: { content: "Read the rules" } });
    await moderator.caller.message.react({ channelId: text.id, messageId: posted.id, emoji: "✅" });
    const { caller } = await person(guild.id, P.ViewChannel | P.ReadMessageHistory);

    const page = await caller.message.list({ channelId: text.id });
    expect(page.denials).toEqual({
      send: "Needs Send messages in this channel.",
      attach: "Needs Attach files in this channel.",
      reply: "Needs Send messages in this channel.",
      react: "Needs Add reactions in this channel.",
      joinReaction: null,
      pin: "Needs Pin messages in this channel.",
    });
    expect(page.startThread).toEqual({ denial: "Needs Create public threads in this channel." });
    expect(page.messages[0]?.denials).toEqual({ edit: "Only its author can edit a message.", delete: "Needs Manage messages in this channel." });

    await expect(caller.message.send({ channelId: text.id, body: { content: "hi" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller.message.react({ channelId: text.id, messageId: posted.id, emoji: "🎉" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // Joining a reaction someone already made needs only the history.
    await caller.message.react({ channelId: text.id, messageId: posted.id, emoji: "✅" });
    await expect(caller.message.edit({ channelId: text.id, messageId: posted.id, body: { content: "mine now" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
