import { ChannelType, GatewayDispatchEvents, MessageType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { addMember, makeUser, writeGuildState } from "~/test/factories.ts";
import { loadConformance } from "~/test/openapi-conformance.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { runChange } from "~/server/events/change.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createMessage, type CreateMessageInput } from "./message-create.service.ts";
import { ZCreateMessageBodySchema } from "./message.schema.ts";
import { newAttachments, readMessageRequest } from "./message-validation.ts";

const app = useTestApp();
const kit = threadKit(app);

async function post(input: Omit<CreateMessageInput, "body"> & { body: unknown }) {
  const { body, files } = readMessageRequest(ZCreateMessageBodySchema, input.body);
  return runChange({ db: app.db, actor: null }, (change) =>
    createMessage(change, { ...input, body, files: input.files ?? newAttachments(files, body.attachments) }),
  );
}

async function webhookIn(guildId: string, channelId: string) {
  return writeGuildState(app.db, guildId, (tx) =>
    tx.webhook.create({ data: { id: newId(), type: 1, guildId, channelId, name: "Deploys", avatar: "0123456789abcdef0123456789abcdef", token: "t" } }),
  );
}

describe("createMessage", () => {
  it("posts as a webhook under its name and avatar, or the overrides, with Message Create and the channel's last message", async () => {
    const { guild, text } = await kit.setup();
    const webhook = await webhookIn(guild.id, text.id);
    const message = await post({
      channel: text,
      guildId: guild.id,
      author: { kind: "webhook", webhook },
      body: { content: "shipped", embeds: [{ title: "v1", fields: [{ name: "a", value: "b" }] }] },
    });
    expect(loadConformance().checkSchema("MessageResponse", message)).toBeNull();
    expect(message).toMatchObject({
      type: MessageType.Default,
      content: "shipped",
      channel_id: text.id,
      webhook_id: webhook.id,
      author: { id: webhook.id, username: "Deploys", avatar: webhook.avatar, discriminator: "0000", bot: true },
      embeds: [{ type: "rich", title: "v1", fields: [{ name: "a", value: "b", inline: false }] }],
      mentions: [],
      mention_everyone: false,
      edited_timestamp: null,
    });
    const renamed = await post({
      channel: text,
      guildId: guild.id,
      author: { kind: "webhook", webhook, username: "CI", avatarUrl: "https://example.com/a.png" },
      body: { content: "again" },
    });
    expect(renamed.author).toMatchObject({ id: webhook.id, username: "CI", avatar: null });

    expect(await kit.eventsOf(guild.id, GatewayDispatchEvents.MessageCreate)).toEqual([
      { ...message, guild_id: guild.id, channel_type: ChannelType.GuildText },
      { ...renamed, guild_id: guild.id, channel_type: ChannelType.GuildText },
    ]);
    expect((await app.db.channel.findUniqueOrThrow({ where: { id: text.id } })).lastMessageId).toBe(renamed.id);
  });

  it("mentions members only, mentionable roles, and everyone when allowed", async () => {
    const { guild, text, owner } = await kit.setup();
    const member = await makeUser(app.db);
    await addMember(app.db, guild.id, member.user.id);
    const outsider = await makeUser(app.db);
    const mentionable = await kit.addRole(guild.id, 1, { name: "pingable" });
    await writeGuildState(app.db, guild.id, (tx) => tx.role.update({ where: { id: mentionable.id }, data: { mentionable: true } }));
    const quiet = await kit.addRole(guild.id, 2, { name: "quiet" });
    const content = `<@${member.user.id}> <@${outsider.user.id}> <@&${mentionable.id}> <@&${quiet.id}> @everyone`;
    const author = { kind: "user" as const, user: owner.user };

    const plain = await post({ channel: text, guildId: guild.id, author, body: { content } });
    expect(plain.mentions.map((u) => u.id)).toEqual([member.user.id]);
    expect(plain.mention_roles).toEqual([mentionable.id]);
    expect(plain.mention_everyone).toBe(false);

    const everyone = await post({ channel: text, guildId: guild.id, author, body: { content }, canMentionEveryone: true });
    expect(everyone.mention_roles).toEqual([mentionable.id, quiet.id]);
    expect(everyone.mention_everyone).toBe(true);

    const none = await post({ channel: text, guildId: guild.id, author, body: { content, allowed_mentions: { parse: [] } }, canMentionEveryone: true });
    expect([none.mentions, none.mention_roles, none.mention_everyone]).toEqual([[], [], false]);
    expect(none.content).toBe(content);
  });

  it("stores files in the file store with their attachment objects", async () => {
    const { guild, text, owner } = await kit.setup();
    const data = Object.assign(Buffer.from("hello"), { filename: "SPOILER_notes.txt", contentType: "text/plain" });
    const message = await post({
      channel: text,
      guildId: guild.id,
      author: { kind: "user", user: owner.user },
      body: { content: "see file" },
      files: newAttachments([{ index: 0, filename: data.filename, contentType: data.contentType, data }], []),
    });
    const [attachment] = message.attachments;
    expect(attachment).toMatchObject({ filename: "SPOILER_notes.txt", size: 5, content_type: "text/plain", flags: 8 });
    expect(attachment!.url).toMatch(new RegExp(`/cdn/attachments/${text.id}/${attachment!.id}/SPOILER_notes.txt$`));
    const stored = await app.db.image.findUniqueOrThrow({ where: { path: `attachments/${text.id}/${attachment!.id}/SPOILER_notes.txt` } });
    expect(Buffer.from(stored.data).toString()).toBe("hello");
  });
});
