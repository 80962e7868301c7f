import { AllowedMentionsTypes, MessageFlags } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { ApiError } from "~/server/errors.ts";
import { allowMentions, parseMentions } from "./mentions.ts";
import { ZCreateMessageBodySchema } from "./message.schema.ts";
import { checkNewMessage, newAttachments, readMessageRequest, type UploadedFile } from "./message-validation.ts";

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

const read = (body: unknown) => readMessageRequest(ZCreateMessageBodySchema, body).body;
const file = (index: number, filename: string): UploadedFile => ({ index, filename, contentType: "text/plain", data: Buffer.from("hi") });

describe("message request limits", () => {
  it("takes 2000 characters of content and refuses 2001", () => {
    expect(read({ content: "x".repeat(2000) }).content).toHaveLength(2000);
    const error = refusal(() => read({ content: "x".repeat(2001) }));
    expect(error.code).toBe(50035);
    expect(error.errors).toEqual({ content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length." }] } });
  });

  it("takes 10 embeds, refuses 11, and refuses 6001 characters across them", () => {
    expect(read({ embeds: Array.from({ length: 10 }, () => ({ title: "t" })) }).embeds).toHaveLength(10);
    expect(refusal(() => read({ embeds: Array.from({ length: 11 }, () => ({ title: "t" })) })).errors).toEqual({
      embeds: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 10 or fewer in length." }] },
    });
    const sixThousand = [{ description: "d".repeat(4000) }, { description: "d".repeat(1744), title: "t".repeat(256) }];
    expect(read({ embeds: sixThousand }).embeds).toHaveLength(2);
    const over = [{ description: "d".repeat(4000) }, { description: "d".repeat(1745), title: "t".repeat(256) }];
    expect(refusal(() => read({ embeds: over })).errors).toEqual({
      embeds: { _errors: [{ code: "MAX_EMBED_SIZE_EXCEEDED", message: "Embed size exceeds maximum size of 6000" }] },
    });
  });

  it("applies the per-field embed limits", () => {
    const error = refusal(() =>
      read({
        embeds: [
          {
            title: "t".repeat(257),
            footer: { text: "f".repeat(2049) },
            author: { name: "a".repeat(257) },
            fields: [{ name: "n".repeat(257), value: "v".repeat(1025) }],
          },
        ],
      }),
    );
    const embedErrors = (error.errors!.embeds as Record<string, object>)["0"]!;
    expect(Object.keys(embedErrors).sort()).toEqual(["author", "fields", "footer", "title"]);
    expect(refusal(() => read({ embeds: [{ fields: Array.from({ length: 26 }, () => ({ name: "n", value: "v" })) }] })).code).toBe(50035);
    expect(refusal(() => read({ embeds: [{ url: "ftp://example.com" }] })).errors!.embeds).toBeDefined();
  });

  it("ignores type, provider, video and image sizes", () => {
    const [embed] = read({
      embeds: [
        {
          type: "video",
          provider: { name: "p" },
          video: { url: "https://v.example" },
          image: { url: "https://i.example/a.png", width: 9, height: 9, proxy_url: "x" },
        },
      ],
    }).embeds!;
    expect(embed).toEqual({ image: { url: "https://i.example/a.png" } });
  });

  it("refuses parsing users or roles while listing them", () => {
    const error = refusal(() => read({ allowed_mentions: { parse: ["users"], users: ["1"] } }));
    expect(error.errors).toEqual({
      allowed_mentions: {
        _errors: [{ code: "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", message: 'parse:["users"] and users: [ids...] are mutually exclusive.' }],
      },
    });
    expect(refusal(() => read({ allowed_mentions: { parse: ["roles"], roles: ["1"] } })).code).toBe(50035);
    expect(read({ allowed_mentions: { parse: ["everyone"], users: ["1"] } }).allowed_mentions).toBeTruthy();
  });

  it("refuses flags other than SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2", () => {
    expect(read({ content: "a", flags: MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications }).flags).toBe(4100);
    expect(refusal(() => read({ content: "a", flags: MessageFlags.Ephemeral })).errors!.flags).toBeDefined();
  });
});

describe("message rules across fields", () => {
  it("refuses an empty message with 50006", () => {
    for (const body of [{}, { content: "" }, { embeds: [] }, { components: [] }]) {
      const error = refusal(() => checkNewMessage(read(body), []));
      expect(error.toBody()).toEqual({ code: 50006, message: "Cannot send an empty message" });
    }
    expect(() => checkNewMessage(read({}), [file(0, "a.txt")])).not.toThrow();
    expect(() => checkNewMessage(read({ poll: { question: { text: "?" }, answers: [{ poll_media: { text: "a" } }] } }), [])).not.toThrow();
  });

  it("with IS_COMPONENTS_V2 takes components only", () => {
    const components = [{ type: 10, content: "hello" }];
    expect(() => checkNewMessage(read({ flags: MessageFlags.IsComponentsV2, components }), [])).not.toThrow();
    const mixed = refusal(() =>
      checkNewMessage(read({ flags: MessageFlags.IsComponentsV2, components, content: "hi", embeds: [{ title: "t" }] }), [file(0, "a")]),
    );
    expect(mixed.status).toBe(400);
    expect(mixed.code).toBe(50035);
    expect(Object.keys(mixed.errors!).sort()).toEqual(["content", "embeds", "files"]);
    // Without the flag the v2 layout types are refused, and action rows are the only top level.
    expect(refusal(() => checkNewMessage(read({ components }), [])).errors!.components).toBeDefined();
  });

  it("checks action rows, buttons and selects", () => {
    const row = (components: unknown[]) => ({ components: [{ type: 1, components }] });
    expect(read(row([{ type: 2, style: 1, custom_id: "a", label: "A" }])).components).toHaveLength(1);
    expect(refusal(() => read(row([{ type: 2, style: 1, label: "A" }]))).code).toBe(50035);
    expect(refusal(() => read(row([{ type: 2, style: 5, label: "L" }]))).code).toBe(50035);
    expect(read(row([{ type: 2, style: 5, label: "L", url: "https://example.com" }])).components).toHaveLength(1);
    const select = { type: 3, custom_id: "s", options: [{ label: "a", value: "a" }] };
    expect(refusal(() => read(row([select, { type: 2, style: 1, custom_id: "b" }]))).code).toBe(50035);
    expect(refusal(() => read(row(Array.from({ length: 6 }, (_, i) => ({ type: 2, style: 1, custom_id: `b${i}` }))))).code).toBe(50035);
  });
});

describe("mentions", () => {
  const content = "hi <@1> <@!2> <@&3> @everyone";

  it("parses users, roles and everyone from the content", () => {
    expect(parseMentions(content)).toEqual({ userIds: ["1", "2"], roleIds: ["3"], everyone: true });
    expect(parseMentions("email@here.com everyone")).toEqual({ userIds: [], roleIds: [], everyone: false });
  });

  it("lets every kind through by default, and only what allowed_mentions names otherwise", () => {
    expect(allowMentions(parseMentions(content), undefined)).toEqual({ userIds: ["1", "2"], roleIds: ["3"], everyone: true, repliedUser: true });
    expect(allowMentions(parseMentions(content), { parse: [] })).toEqual({ userIds: [], roleIds: [], everyone: false, repliedUser: false });
    expect(allowMentions(parseMentions(content), { users: ["2"], parse: [AllowedMentionsTypes.Role] })).toEqual({
      userIds: ["2"],
      roleIds: ["3"],
      everyone: false,
      repliedUser: false,
    });
  });
});

describe("attachments", () => {
  it("pairs files[n] with attachments entries; is_spoiler or a SPOILER_ name marks spoilers", () => {
    const attachments = newAttachments(
      [file(0, "notes me.txt"), file(1, "SPOILER_cat.png"), file(2, "x.txt")],
      [
        { id: "0", description: "notes", is_spoiler: true },
        { id: "2", filename: "renamed.txt" },
      ],
    );
    expect(attachments.map((a) => [a.filename, a.description, a.isSpoiler])).toEqual([
      ["notes_me.txt", "notes", true],
      ["SPOILER_cat.png", null, true],
      ["renamed.txt", null, false],
    ]);
    expect(refusal(() => newAttachments([file(0, "a")], [{ id: "5" }])).errors).toEqual({
      attachments: { "0": { id: { _errors: [{ code: "ATTACHMENT_NOT_FOUND", message: "Attachment not found." }] } } },
    });
  });
});
