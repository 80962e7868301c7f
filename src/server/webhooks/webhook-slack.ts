import { z } from "zod";
import type { Db } from "~/server/db/client.ts";
import { fromZodError } from "~/server/errors.ts";
import { isFormBody } from "~/server/http/multipart.ts";
import { embedSize, MESSAGE_LIMITS, type TEmbed } from "~/server/messages/message.schema.ts";
import { ZQueryBooleanSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { parseRequestJson } from "~/server/validation/json.ts";
import { ZWebhookExecuteBodySchema } from "./webhook-execute.schema.ts";
import { executeWebhook } from "./webhook-execute.service.ts";

/** The chat product's named colours, as it draws them. */
const NAMED_COLORS: Record<string, number> = { good: 0x2eb886, warning: 0xdaa038, danger: 0xa30200 };

const ZUrlSchema = z.url({ protocol: /^https?$/ }).max(MESSAGE_LIMITS.url);
/** The furthest a date reaches either side of 1970 (ECMAScript's time range), in seconds. */
const DATE_RANGE_SECONDS = 8.64e12;
/** Its timestamps are Unix seconds, as a number or a string ("1700000000.123"), within the dates an embed's timestamp can hold. */
const ZUnixSecondsSchema = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .refine((seconds) => Math.abs(seconds) <= DATE_RANGE_SECONDS, { message: "Could not parse timestamp.", params: { code: "DATE_TIME_TYPE_PARSE" } });

const ZSlackFieldSchema = z.object({
  title: z.string().nullish(),
  // The subset's spelling of the same field.
  name: z.string().nullish(),
  value: z.union([z.string(), z.number()]).transform(String).nullish(),
  short: z.boolean().nullish(),
  inline: z.boolean().nullish(),
});

const ZSlackAttachmentSchema = z.object({
  color: z
    .string()
    .regex(/^(#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})|good|warning|danger)$/)
    .nullish(),
  pretext: z.string().nullish(),
  author_name: z.string().nullish(),
  author_link: ZUrlSchema.nullish(),
  author_icon: ZUrlSchema.nullish(),
  title: z.string().nullish(),
  title_link: ZUrlSchema.nullish(),
  text: z.string().nullish(),
  fields: z.array(ZSlackFieldSchema).nullish(),
  image_url: ZUrlSchema.nullish(),
  thumb_url: ZUrlSchema.nullish(),
  footer: z.string().nullish(),
  footer_icon: ZUrlSchema.nullish(),
  ts: ZUnixSecondsSchema.nullish(),
});

/**
 * The chat product's payload (spec 4.8). `channel`, `icon_emoji`, `mrkdwn` and `mrkdwn_in`
 * are not supported: zod drops them with any other unknown key.
 */
export const ZSlackPayloadSchema = z.object({
  text: z.string().max(MESSAGE_LIMITS.content).nullish(),
  username: z.string().nullish(),
  icon_url: ZUrlSchema.nullish(),
  attachments: z.array(ZSlackAttachmentSchema).nullish(),
});
export type TSlackPayload = z.output<typeof ZSlackPayloadSchema>;
type TSlackAttachment = z.output<typeof ZSlackAttachmentSchema>;

/**
 * The payload as sent: JSON, or a form (URL-encoded or multipart) carrying it as JSON in
 * `payload` (the product's own form) or `payload_json`, or as plain text, username and
 * icon_url fields. 50109 for a form payload that is not JSON, 50035 with field errors.
 */
export function readSlackPayload(raw: unknown): TSlackPayload {
  let payload: unknown = raw ?? {};
  if (isFormBody(raw)) {
    const json = raw.payload ?? raw.payload_json;
    if (typeof json === "string") {
      payload = parseRequestJson(json);
    } else {
      payload = Object.fromEntries(["text", "username", "icon_url"].flatMap((name) => (typeof raw[name] === "string" ? [[name, raw[name]]] : [])));
    }
  }
  const parsed = ZSlackPayloadSchema.safeParse(payload);
  if (!parsed.success) throw fromZodError(parsed.error, payload);
  return parsed.data;
}

/** POST /webhooks/{webhook.id}/{webhook.token}/slack: query; wait defaults to true here. */
export const ZSlackQuerySchema = z.object({ wait: ZQueryBooleanSchema.optional(), thread_id: ZSnowflakeSchema.optional() });
export type TSlackQuery = z.output<typeof ZSlackQuerySchema>;

function cut(text: string | null | undefined, max: number): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed.slice(0, max) : undefined;
}

function toColor(color: string | null | undefined): number | undefined {
  if (!color) return undefined;
  if (color in NAMED_COLORS) return NAMED_COLORS[color];
  const hex = color.slice(1);
  return parseInt(hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex, 16);
}

/**
 * One attachment as an embed. The product's texts may be longer than an embed's fields,
 * so they are cut to the platform's limits rather than refused; fields missing a title or
 * value get an invisible one, since embed fields need both.
 */
function slackAttachmentToEmbed(attachment: TSlackAttachment): TEmbed | null {
  const L = MESSAGE_LIMITS;
  const authorName = cut(attachment.author_name, L.embedAuthorName);
  const footerText = cut(attachment.footer, L.embedFooterText);
  const fields = (attachment.fields ?? [])
    .filter((field) => (field.title ?? field.name) || field.value)
    .slice(0, L.embedFields)
    .map((field) => ({
      name: cut(field.title ?? field.name, L.embedFieldName) ?? "\u200b",
      value: cut(field.value, L.embedFieldValue) ?? "\u200b",
      inline: Boolean(field.short ?? field.inline),
    }));
  const embed: TEmbed = {
    title: cut(attachment.title, L.embedTitle),
    url: attachment.title_link ?? undefined,
    description: cut(attachment.text, L.embedDescription),
    color: toColor(attachment.color),
    author: authorName ? { name: authorName, url: attachment.author_link, icon_url: attachment.author_icon } : undefined,
    fields: fields.length > 0 ? fields : undefined,
    image: attachment.image_url ? { url: attachment.image_url } : undefined,
    thumbnail: attachment.thumb_url ? { url: attachment.thumb_url } : undefined,
    footer: footerText ? { text: footerText, icon_url: attachment.footer_icon } : undefined,
    timestamp: attachment.ts === null || attachment.ts === undefined ? undefined : new Date(attachment.ts * 1000).toISOString(),
  };
  const shown = embed.title || embed.description || embed.author || embed.fields || embed.image || embed.thumbnail || embed.footer;
  return shown ? embed : null;
}

/** The platform's message for a chat-product payload: pretexts join the text above the embeds; embeds past 10 or the 6000 total are left out. */
function slackToMessage(payload: TSlackPayload): { content: string | null; embeds: TEmbed[]; username?: string; avatar_url?: string } {
  const attachments = payload.attachments ?? [];
  const content = [payload.text, ...attachments.map((a) => a.pretext)].filter((line): line is string => Boolean(line?.trim())).join("\n");
  const embeds: TEmbed[] = [];
  let total = 0;
  for (const attachment of attachments) {
    const embed = slackAttachmentToEmbed(attachment);
    if (!embed) continue;
    if (embeds.length === MESSAGE_LIMITS.embeds || total + embedSize(embed) > MESSAGE_LIMITS.embedTotal) break;
    total += embedSize(embed);
    embeds.push(embed);
  }
  return {
    content: content.slice(0, MESSAGE_LIMITS.content) || null,
    embeds,
    ...(payload.username && { username: payload.username }),
    ...(payload.icon_url && { avatar_url: payload.icon_url }),
  };
}

/**
 * POST /webhooks/{webhook.id}/{webhook.token}/slack (spec 4.8): the payload becomes a message
 * posted as Execute Webhook posts it (its rules and errors), waiting for it unless wait=false.
 */
export async function executeSlackWebhook(db: Db, input: { webhookId: string; token: string; query: TSlackQuery; payload: TSlackPayload }): Promise<void> {
  const request = slackToMessage(input.payload);
  const parsed = ZWebhookExecuteBodySchema.safeParse(request);
  if (!parsed.success) throw fromZodError(parsed.error, request);
  await executeWebhook(db, {
    webhookId: input.webhookId,
    token: input.token,
    query: { wait: input.query.wait ?? true, thread_id: input.query.thread_id },
    body: parsed.data,
    files: [],
  });
}
