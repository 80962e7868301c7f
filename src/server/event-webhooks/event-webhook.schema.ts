import { ApplicationWebhookEventStatus, ApplicationWebhookEventType } from "discord-api-types/v10";
import { z } from "zod";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";

/**
 * The webhook event types Guildhall sends, in the platform's table's order: the ones its outbox
 * holds (applications' authorizations, lobby messages). Entitlements, quests and game direct
 * messages do not exist here.
 */
export const EVENT_WEBHOOK_TYPES = [
  ApplicationWebhookEventType.ApplicationAuthorized,
  ApplicationWebhookEventType.ApplicationDeauthorized,
  LobbyEvents.MessageCreate,
  LobbyEvents.MessageUpdate,
  LobbyEvents.MessageDelete,
] as const;
export type EventWebhookType = (typeof EVENT_WEBHOOK_TYPES)[number];

export function isEventWebhookType(type: string): type is EventWebhookType {
  return (EVENT_WEBHOOK_TYPES as readonly string[]).includes(type);
}

/** The platform's status values: 1 disabled, 2 enabled, 3 disabled by the platform (here: after persistent failure). */
export const EVENT_WEBHOOK_STATUS = {
  DISABLED: ApplicationWebhookEventStatus.Disabled,
  ENABLED: ApplicationWebhookEventStatus.Enabled,
  DISABLED_BY_FAILURE: ApplicationWebhookEventStatus.DisabledByDiscord,
} as const;

/** The platform's limit on URLs an application registers. */
const EVENT_WEBHOOKS_URL_MAX = 2048;

const ZEventWebhooksUrlSchema = z
  .url({ protocol: /^https?$/, error: "Must be an http or https URL." })
  .max(EVENT_WEBHOOKS_URL_MAX, { error: `Must be ${EVENT_WEBHOOKS_URL_MAX} or fewer in length.` });

/**
 * The event webhook fields of PATCH /applications/@me (the platform's names): the URL (null
 * removes it), 1 to disable or 2 to enable (3 is the platform's to set), and the types.
 */
export const ZEventWebhookSettingsBodySchema = z.object({
  event_webhooks_url: ZEventWebhooksUrlSchema.nullable().optional(),
  event_webhooks_status: z.union([z.literal(EVENT_WEBHOOK_STATUS.DISABLED), z.literal(EVENT_WEBHOOK_STATUS.ENABLED)]).optional(),
  event_webhooks_types: z.array(z.enum(EVENT_WEBHOOK_TYPES)).optional(),
});
export type TEventWebhookSettingsBody = z.output<typeof ZEventWebhookSettingsBodySchema>;

/** The dashboard's change of one application's event webhook settings. */
export const ZEventWebhookSettingsInputSchema = z.object({ applicationId: ZSnowflakeSchema, body: ZEventWebhookSettingsBodySchema });

/** The dashboard's delivery log: a page of it, newest first, before a delivery id. */
const EVENT_WEBHOOK_LOG_PAGE_MAX = 50;
export const ZEventWebhookLogInputSchema = z.object({
  applicationId: ZSnowflakeSchema,
  before: ZSnowflakeSchema.optional(),
  limit: z.number().int().min(1).max(EVENT_WEBHOOK_LOG_PAGE_MAX).default(20),
});
export type TEventWebhookLogInput = z.output<typeof ZEventWebhookLogInputSchema>;
