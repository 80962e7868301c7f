import { GatewayIntentBits as I } from "discord-api-types/v10";
import type { GatewayMessageCreateDispatchData } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { guildMessageWithoutContent, readsMessageContent, withoutContent } from "./message-content.ts";

const app = { botUserId: "900", applicationId: "901" };
const user = (id: string) => ({ id, username: `u${id}`, discriminator: "0", global_name: null, avatar: null });

function message(fields: Partial<GatewayMessageCreateDispatchData> = {}): GatewayMessageCreateDispatchData {
  return {
    id: "1",
    channel_id: "2",
    guild_id: "3",
    author: user("4"),
    content: "hello",
    timestamp: "2026-01-01T00:00:00.000Z",
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [{ id: "5", filename: "a.png", size: 1, url: "u", proxy_url: "p" }],
    embeds: [{ title: "t" }],
    components: [],
    poll: { question: { text: "q" } } as GatewayMessageCreateDispatchData["poll"],
    pinned: false,
    type: 0,
    ...fields,
  };
}

describe("MESSAGE_CONTENT", () => {
  it("needs both the application's intent and the IDENTIFY bit", () => {
    expect(readsMessageContent({ intents: I.MessageContent, messageContent: true })).toBe(true);
    expect(readsMessageContent({ intents: I.GuildMessages, messageContent: true })).toBe(false);
    expect(readsMessageContent({ intents: I.MessageContent, messageContent: false })).toBe(false);
  });

  it("empties another user's content, embeds, attachments and components and drops the poll", () => {
    const original = message();
    const seen = withoutContent(original, app);
    expect(seen).toMatchObject({ id: "1", channel_id: "2", author: { id: "4" }, content: "", embeds: [], attachments: [], components: [] });
    expect(seen).not.toHaveProperty("poll");
    expect(original.content).toBe("hello");
  });

  it("keeps the app's own messages, messages mentioning it, and DMs as they are", () => {
    for (const own of [
      message({ author: user("900") }),
      message({ application_id: "901" }),
      message({ mentions: [user("900")] }),
      message({ guild_id: undefined }),
    ]) {
      expect(withoutContent(own, app)).toBe(own);
    }
  });

  it("keeps what came through a webhook the application owns (its application_id), and empties other webhooks' messages", () => {
    const hook = user("700");
    const viaOwn = message({ author: hook, webhook_id: "700", application_id: "901" });
    expect(withoutContent(viaOwn, app)).toBe(viaOwn);
    expect(withoutContent(message({ author: hook, webhook_id: "700", application_id: "555" }), app)).toMatchObject({ content: "", embeds: [] });
    expect(withoutContent(message({ author: hook, webhook_id: "700" }), app)).toMatchObject({ content: "", attachments: [] });
    // A reply to the app's webhook's message keeps the message it replies to.
    expect(withoutContent(message({ referenced_message: viaOwn }), app).referenced_message).toBe(viaOwn);
  });

  it("reads a REST message (no guild_id) by the same rule; a caller without an application by author and mentions alone", () => {
    const viaOwn = message({ guild_id: undefined, author: user("700"), webhook_id: "700", application_id: "901" });
    expect(guildMessageWithoutContent(viaOwn, app)).toBe(viaOwn);
    expect(guildMessageWithoutContent(message({ guild_id: undefined }), app)).toMatchObject({ content: "", components: [] });
    const appless = { botUserId: "900", applicationId: null };
    expect(guildMessageWithoutContent(viaOwn, appless).content).toBe("");
    const mentioned = message({ guild_id: undefined, mentions: [user("900")] });
    expect(guildMessageWithoutContent(mentioned, appless)).toBe(mentioned);
  });

  it("judges a reply's referenced message by its own author, and empties a forward's snapshots", () => {
    const reply = message({ author: user("900"), referenced_message: message({ id: "9" }) });
    const seen = withoutContent(reply, app);
    expect(seen.content).toBe("hello");
    expect(seen.referenced_message).toMatchObject({ id: "9", content: "", embeds: [] });

    const ownReply = message({ mentions: [user("900")], referenced_message: message({ id: "9", author: user("900") }) });
    expect(withoutContent(ownReply, app)).toBe(ownReply);

    const forward = message({ message_snapshots: [{ message: { ...message(), content: "forwarded" } }] });
    expect(withoutContent(forward, app).message_snapshots![0]!.message).toMatchObject({ content: "", attachments: [] });
  });
});
