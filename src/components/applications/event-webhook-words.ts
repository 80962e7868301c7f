import type { EventWebhookType } from "~/server/event-webhooks/event-webhook.schema.ts";

/** What each event type means, for its checkbox. */
export const EVENT_TYPE_WORDS: Record<EventWebhookType, string> = {
  APPLICATION_AUTHORIZED: "Someone authorized your application, to their account or a guild.",
  APPLICATION_DEAUTHORIZED: "Someone deauthorized your application.",
  LOBBY_MESSAGE_CREATE: "A message was sent in one of your lobbies.",
  LOBBY_MESSAGE_UPDATE: "A lobby message was edited.",
  LOBBY_MESSAGE_DELETE: "A lobby message was deleted.",
};

/** A delivery's status as the log shows it. */
export const DELIVERY_STATUS_WORDS: Record<string, { label: string; color: string }> = {
  pending: { label: "Retrying", color: "yellow" },
  delivered: { label: "Delivered", color: "teal" },
  failed: { label: "Failed", color: "red" },
  cancelled: { label: "Not sent", color: "gray" },
};
