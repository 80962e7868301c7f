import { z } from "zod";
import type { Db } from "~/server/db/client.ts";
import { checkEvents } from "./github/github-check-events.ts";
import { conversationEvents } from "./github/github-conversation-events.ts";
import type { GithubEventMapper } from "./github/github-embed-style.ts";
import type { TGithubPayload } from "./github/github-payload.ts";
import { repositoryEvents } from "./github/github-repository-events.ts";
import { fromZodError } from "~/server/errors.ts";
import type { MessageObject } from "~/server/messages/message.dto.ts";
import { ZWebhookExecuteBodySchema } from "./webhook-execute.schema.ts";
import { executeWebhook } from "./webhook-execute.service.ts";
import { findWebhookByToken } from "./webhook.service.ts";
import { ZQueryBooleanSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** The 18 events of spec 4.8, each with its embed; any other event is accepted and ignored. */
const GITHUB_EVENTS: Record<string, GithubEventMapper> = { ...repositoryEvents, ...conversationEvents, ...checkEvents };
export const SUPPORTED_GITHUB_EVENTS = Object.keys(GITHUB_EVENTS);

/** The name and avatar these messages are posted under, as the platform does. */
const GITHUB_USERNAME = "GitHub";
const GITHUB_AVATAR = "https://github.githubassets.com/images/modules/logos_page/GitHub-Mark.png";

/** POST /webhooks/{webhook.id}/{webhook.token}/github: query; wait defaults to true here. */
export const ZGithubQuerySchema = z.object({ wait: ZQueryBooleanSchema.optional(), thread_id: ZSnowflakeSchema.optional() });
export type TGithubQuery = z.output<typeof ZGithubQuerySchema>;

/**
 * POST /webhooks/{webhook.id}/{webhook.token}/github (spec 4.8): the event named by the
 * X-GitHub-Event header becomes one embed posted as Execute Webhook posts it; events
 * outside the 18, and actions the platform skips, post nothing. Answers the message
 * when it waited for one (wait, true by default), else null.
 */
export async function executeGithubWebhook(
  db: Db,
  input: { webhookId: string; token: string; event: string | null; query: TGithubQuery; payload: TGithubPayload },
): Promise<MessageObject | null> {
  // An ignored event still needs a valid webhook and token.
  await findWebhookByToken(db, input);
  const mapper = input.event && Object.hasOwn(GITHUB_EVENTS, input.event) ? GITHUB_EVENTS[input.event] : undefined;
  const embed = mapper?.(input.payload);
  if (!embed) return null;
  // The payload's URLs and texts pass the message rules like any embed's.
  const request = { username: GITHUB_USERNAME, avatar_url: GITHUB_AVATAR, embeds: [embed] };
  const parsed = ZWebhookExecuteBodySchema.safeParse(request);
  if (!parsed.success) throw fromZodError(parsed.error, request);
  const query = { wait: input.query.wait ?? true, thread_id: input.query.thread_id };
  return executeWebhook(db, { webhookId: input.webhookId, token: input.token, query, body: parsed.data, files: [] });
}
