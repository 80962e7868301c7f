import { z } from "zod";
import { ZEventWebhookSettingsBodySchema } from "~/server/event-webhooks/event-webhook.schema.ts";
import { ZImageDataSchema } from "~/server/images/image.schema.ts";
import { lengthBetween, ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** The platform's limits on an application's name and description. */
const APPLICATION_NAME_MIN = 1;
export const APPLICATION_NAME_MAX = 32;
export const APPLICATION_DESCRIPTION_MAX = 400;

const ZApplicationNameSchema = lengthBetween(APPLICATION_NAME_MIN, APPLICATION_NAME_MAX, { trim: true });
const ZApplicationDescriptionSchema = lengthBetween(0, APPLICATION_DESCRIPTION_MAX);

/** The privileged gateway intents an application can hold (their flags: intents.ts). */
export const PRIVILEGED_INTENT_NAMES = ["GUILD_MEMBERS", "PRESENCE", "MESSAGE_CONTENT"] as const;
export type PrivilegedIntent = (typeof PRIVILEGED_INTENT_NAMES)[number];

/** PATCH /applications/@me: of the platform's fields, the limited intents (`flags`), `description`, `icon` and the event webhook settings. */
export const ZApplicationModifyBodySchema = z.object({
  flags: z.number().int().min(0).optional(),
  description: ZApplicationDescriptionSchema.optional(),
  icon: ZImageDataSchema.optional(),
  ...ZEventWebhookSettingsBodySchema.shape,
});

/** The dashboard's new application: a name and an optional description. */
export const ZApplicationCreateBodySchema = z.object({ name: ZApplicationNameSchema, description: ZApplicationDescriptionSchema.optional() });
export type TApplicationCreateBody = z.output<typeof ZApplicationCreateBodySchema>;

/**
 * The dashboard's edit of an application: name, description, icon (null removes it), the
 * channel obfuscation opt-in, and the OAuth2 switches (public client, public bot, code grant).
 */
export const ZApplicationEditBodySchema = z.object({
  name: ZApplicationNameSchema.optional(),
  description: ZApplicationDescriptionSchema.optional(),
  icon: ZImageDataSchema.optional(),
  channelObfuscation: z.boolean().optional(),
  publicClient: z.boolean().optional(),
  botPublic: z.boolean().optional(),
  botRequireCodeGrant: z.boolean().optional(),
});
export type TApplicationEditBody = z.output<typeof ZApplicationEditBodySchema>;

/** tRPC inputs that name one of the user's applications. */
export const ZApplicationIdInputSchema = z.object({ applicationId: ZSnowflakeSchema });

/** The dashboard's switch of one privileged intent's limited form. */
export const ZApplicationIntentInputSchema = ZApplicationIdInputSchema.extend({ intent: z.enum(PRIVILEGED_INTENT_NAMES), enabled: z.boolean() });
export type TApplicationIntentInput = z.output<typeof ZApplicationIntentInputSchema>;

/** The dashboard's replacement of the registered redirect URIs; each is checked by the OAuth2 client's own rule. */
export const ZApplicationRedirectUrisInputSchema = ZApplicationIdInputSchema.extend({ redirectUris: z.array(z.string().max(4096)).max(100) });
export type TApplicationRedirectUrisInput = z.output<typeof ZApplicationRedirectUrisInputSchema>;
