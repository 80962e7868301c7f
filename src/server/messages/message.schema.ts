import { AllowedMentionsTypes, MessageFlags } from "discord-api-types/v10";
import { z } from "zod";
import { MAX_FILE_BYTES, MAX_FORM_FILES } from "~/server/http/http-types.ts";
import { queryInt, ZSnowflakeSchema, ZTimestampSchema } from "~/server/validation/fields.ts";
import { zUrl } from "~/server/validation/url.ts";
import { ZComponentsSchema } from "./component.schema.ts";

/** The platform's message limits (spec 8 and the embed limits of its message resource). */
export const MESSAGE_LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  embedFieldName: 256,
  embedFieldValue: 1024,
  embedFooterText: 2048,
  embedAuthorName: 256,
  /** Across every embed of a message: titles, descriptions, field names and values, footer texts, author names. */
  embedTotal: 6000,
  url: 2048,
  attachmentDescription: 1024,
  pollQuestion: 300,
  pollAnswer: 55,
  pollAnswers: 10,
} as const;

/** Flags a message may be sent with (webhooks and bots alike). */
const CREATE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications | MessageFlags.IsComponentsV2;

/** Where an embed links to, and the images it shows (which may be files uploaded with it). */
const ZLinkUrlSchema = zUrl({ schemes: ["http", "https"], max: MESSAGE_LIMITS.url });
const ZImageUrlSchema = zUrl({ schemes: ["http", "https", "attachment"], max: MESSAGE_LIMITS.url });

// Image height, width and proxy_url, and the embed's type, provider and video, are not
// settable: zod drops unknown keys, so they are ignored as the platform ignores them.
const ZEmbedMediaSchema = z.object({ url: ZImageUrlSchema });

const ZEmbedFieldSchema = z.object({
  name: z.string().min(1).max(MESSAGE_LIMITS.embedFieldName),
  value: z.string().min(1).max(MESSAGE_LIMITS.embedFieldValue),
  inline: z.boolean().nullish(),
});

const ZEmbedSchema = z.object({
  title: z.string().max(MESSAGE_LIMITS.embedTitle).nullish(),
  description: z.string().max(MESSAGE_LIMITS.embedDescription).nullish(),
  url: ZLinkUrlSchema.nullish(),
  timestamp: ZTimestampSchema.nullish(),
  color: z.number().int().min(0).max(0xffffff).nullish(),
  footer: z.object({ text: z.string().min(1).max(MESSAGE_LIMITS.embedFooterText), icon_url: ZImageUrlSchema.nullish() }).nullish(),
  image: ZEmbedMediaSchema.nullish(),
  thumbnail: ZEmbedMediaSchema.nullish(),
  author: z
    .object({ name: z.string().min(1).max(MESSAGE_LIMITS.embedAuthorName), url: ZLinkUrlSchema.nullish(), icon_url: ZImageUrlSchema.nullish() })
    .nullish(),
  fields: z.array(ZEmbedFieldSchema).max(MESSAGE_LIMITS.embedFields).nullish(),
});
export type TEmbed = z.output<typeof ZEmbedSchema>;

/** The characters the 6000 total counts in one embed. */
export function embedSize(embed: TEmbed): number {
  const fields = (embed.fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0);
  return (embed.title?.length ?? 0) + (embed.description?.length ?? 0) + (embed.footer?.text.length ?? 0) + (embed.author?.name.length ?? 0) + fields;
}

const ZEmbedsSchema = z
  .array(ZEmbedSchema)
  .max(MESSAGE_LIMITS.embeds)
  .superRefine((embeds, ctx) => {
    const total = embeds.reduce((sum, embed) => sum + embedSize(embed), 0);
    if (total > MESSAGE_LIMITS.embedTotal) {
      ctx.addIssue({
        code: "custom",
        message: `Embed size exceeds maximum size of ${MESSAGE_LIMITS.embedTotal}`,
        params: { code: "MAX_EMBED_SIZE_EXCEEDED" },
      });
    }
  });

const ALLOWED_MENTION_TYPES = [AllowedMentionsTypes.User, AllowedMentionsTypes.Role, AllowedMentionsTypes.Everyone] as const;

const ZAllowedMentionsSchema = z
  .object({
    parse: z.array(z.enum(ALLOWED_MENTION_TYPES)).nullish(),
    users: z.array(ZSnowflakeSchema).max(100).nullish(),
    roles: z.array(ZSnowflakeSchema).max(100).nullish(),
    replied_user: z.boolean().nullish(),
  })
  .superRefine((value, ctx) => {
    // The platform refuses a kind both parsed from the content and listed by id.
    for (const [kind, list] of [
      [AllowedMentionsTypes.User, value.users],
      [AllowedMentionsTypes.Role, value.roles],
    ] as const) {
      if (value.parse?.includes(kind) && list && list.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `parse:["${kind}"] and ${kind}: [ids...] are mutually exclusive.`,
          params: { code: "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE" },
        });
      }
    }
  });
export type TAllowedMentions = z.output<typeof ZAllowedMentionsSchema>;

const ZPollEmojiSchema = z.object({ id: ZSnowflakeSchema.nullish(), name: z.string().max(32).nullish(), animated: z.boolean().nullish() });

const ZPollRequestSchema = z.object({
  question: z.object({ text: z.string().min(1).max(MESSAGE_LIMITS.pollQuestion) }),
  answers: z
    .array(z.object({ poll_media: z.object({ text: z.string().min(1).max(MESSAGE_LIMITS.pollAnswer), emoji: ZPollEmojiSchema.nullish() }) }))
    .min(1)
    .max(MESSAGE_LIMITS.pollAnswers),
  duration: z.number().int().min(1).max(768).nullish(),
  allow_multiselect: z.boolean().nullish(),
  layout_type: z.literal(1).nullish(),
});
export type TPollRequest = z.output<typeof ZPollRequestSchema>;

/** A partial attachment: `id` is the files[n] index for a new file, or an existing attachment's id. */
const ZAttachmentRequestSchema = z.object({
  id: z.union([ZSnowflakeSchema, z.number().int().min(0)]).transform(String),
  filename: z.string().min(1).max(1024).nullish(),
  title: z.string().max(1024).nullish(),
  description: z.string().max(MESSAGE_LIMITS.attachmentDescription).nullish(),
  is_spoiler: z.boolean().nullish(),
});
export type TAttachmentRequest = z.output<typeof ZAttachmentRequestSchema>;

export const MESSAGE_REFERENCE_FORWARD = 1;

const ZMessageReferenceSchema = z.object({
  message_id: ZSnowflakeSchema,
  channel_id: ZSnowflakeSchema.nullish(),
  guild_id: ZSnowflakeSchema.nullish(),
  fail_if_not_exists: z.boolean().nullish(),
  type: z.union([z.literal(0), z.literal(MESSAGE_REFERENCE_FORWARD)]).nullish(),
});

const ZMessageFlagsSchema = z
  .number()
  .int()
  .min(0)
  .refine((flags) => (flags & ~CREATE_FLAGS) === 0, {
    message: "Only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 can be set.",
    params: { code: "MESSAGE_FLAGS_INVALID" },
  });

/**
 * The fields every way of posting a message shares (bots' Create Message, webhooks' Execute).
 * Callers extend it with their own (message_reference; username, avatar_url, thread_name).
 */
export const ZMessageFieldsSchema = z.object({
  content: z.string().max(MESSAGE_LIMITS.content).nullish(),
  tts: z.boolean().nullish(),
  embeds: ZEmbedsSchema.nullish(),
  allowed_mentions: ZAllowedMentionsSchema.nullish(),
  components: ZComponentsSchema.nullish(),
  attachments: z.array(ZAttachmentRequestSchema).max(10).nullish(),
  flags: ZMessageFlagsSchema.nullish(),
  poll: ZPollRequestSchema.nullish(),
});
export type TMessageFields = z.output<typeof ZMessageFieldsSchema>;

/** POST /channels/{channel.id}/messages. */
export const ZCreateMessageBodySchema = ZMessageFieldsSchema.extend({
  message_reference: ZMessageReferenceSchema.nullish(),
  nonce: z.union([z.string().max(25), z.number().int()]).nullish(),
});
export type TCreateMessageBody = z.output<typeof ZCreateMessageBodySchema>;

/** A message posted from the dashboard: what the person typed, and the message it answers. */
export const ZDashboardMessageBodySchema = ZCreateMessageBodySchema.pick({ content: true, message_reference: true });

const FILE_DATA_URI = /^data:([^;,]*)(?:;[^;,]*)*;base64,([A-Za-z0-9+/]*={0,2})$/;

/** The bytes a data URI's base64 holds. */
function decodedSize(uri: string): number {
  const base64 = uri.slice(uri.indexOf(",") + 1);
  return (base64.length / 4) * 3 - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0);
}

/**
 * The dashboard's files (tRPC carries JSON): each a data URI, read into the files a multipart
 * request holds, numbered as its files[n], for the service to check as it checks those.
 */
export const ZDashboardFilesSchema = z
  .array(
    z.object({
      filename: z.string().min(1).max(1024),
      // The length first, so an oversized body is refused before the pattern reads it.
      data: z
        .string()
        .max(Math.ceil(MAX_FILE_BYTES / 3) * 4 + 1024)
        .regex(FILE_DATA_URI)
        .refine((uri) => decodedSize(uri) <= MAX_FILE_BYTES, { message: "File cannot be larger than 20.0 MB.", params: { code: "BINARY_TYPE_MAX_SIZE" } }),
    }),
  )
  .max(MAX_FORM_FILES)
  .transform((files) =>
    files.map(({ filename, data }, index) => {
      const [, type, base64] = FILE_DATA_URI.exec(data)!;
      return { index, filename, contentType: type || "application/octet-stream", data: Buffer.from(base64!, "base64") };
    }),
  );

/** PATCH /channels/{channel.id}/messages/{message.id} (and a webhook's message edit): every field nullable. */
export const ZEditMessageBodySchema = z.object({
  content: z.string().max(MESSAGE_LIMITS.content).nullish(),
  embeds: ZEmbedsSchema.nullish(),
  flags: z.number().int().min(0).nullish(),
  allowed_mentions: ZAllowedMentionsSchema.nullish(),
  components: ZComponentsSchema.nullish(),
  attachments: z.array(ZAttachmentRequestSchema).max(10).nullish(),
});
export type TEditMessageBody = z.output<typeof ZEditMessageBodySchema>;

/** GET /channels/{channel.id}/messages. */
export const ZListMessagesQuerySchema = z.object({
  limit: z.string().regex(/^\d+$/, "Value is not int.").transform(Number).pipe(z.number().int().min(1).max(100)).optional(),
  before: ZSnowflakeSchema.optional(),
  after: ZSnowflakeSchema.optional(),
  around: ZSnowflakeSchema.optional(),
});
export type TListMessagesQuery = z.output<typeof ZListMessagesQuerySchema>;

const BULK_DELETE_MIN = 2;
const BULK_DELETE_MAX = 100;

/** POST /channels/{channel.id}/messages/bulk-delete: 2-100 distinct message ids. */
export const ZBulkDeleteBodySchema = z.object({
  messages: z
    .array(ZSnowflakeSchema)
    .min(BULK_DELETE_MIN)
    .max(BULK_DELETE_MAX)
    .refine((ids) => new Set(ids).size === ids.length, { message: "Duplicate values are not allowed.", params: { code: "BASE_TYPE_DUPLICATES" } }),
});
export type TBulkDeleteBody = z.output<typeof ZBulkDeleteBodySchema>;

export const PINS_MAX = 50;

/** GET /channels/{channel.id}/messages/pins: pins made before a time, newest first; limit 1-50 (50). */
export const ZListPinsQuerySchema = z.object({
  before: ZTimestampSchema.optional(),
  limit: queryInt(1, PINS_MAX).optional(),
});
export type TListPinsQuery = z.output<typeof ZListPinsQuerySchema>;
