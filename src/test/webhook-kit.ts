// Shared setup for the webhook domain's integration tests: a guild owned by a bot with its
// first text channel, and webhooks created over REST.
import { PermissionFlagsBits as P, type ChannelType } from "discord-api-types/v10";
import { newId } from "~/server/snowflake/snowflake.ts";
import { writeGuildState } from "./factories.ts";
import { memberKit } from "./member-kit.ts";
import type { TestApp } from "./test-app.ts";

export const UNKNOWN_WEBHOOK = { code: 10015, message: "Unknown Webhook" };
export const INVALID_WEBHOOK_TOKEN = { code: 50027, message: "Invalid Webhook Token" };

type Api = ReturnType<TestApp["as"]>;
export type WebhookBody = { id: string; token: string; url: string; channel_id: string; guild_id: string; name: string; [key: string]: unknown };

export function webhookKit(app: TestApp) {
  const kit = memberKit(app);

  /** A guild owned by a fresh bot and its first text channel. */
  function setup() {
    return kit.setupWithChannels();
  }

  /** A channel of `type` in the guild, made as an operator would. */
  async function addChannel(guildId: string, type: ChannelType, name = "more") {
    return writeGuildState(app.db, guildId, (tx) => tx.channel.create({ data: { id: newId(), guildId, name, type } }));
  }

  /** POST /channels/{id}/webhooks, with an audit reason when given. */
  function create(api: Api, channelId: string, body: Record<string, unknown>, reason?: string) {
    return api.post(`/channels/${channelId}/webhooks`, body, reason ? { headers: { "X-Audit-Log-Reason": reason } } : {});
  }

  /** Creates a webhook and answers it (fails the test unless it was created). */
  async function webhook(api: Api, channelId: string, name = "Build bot"): Promise<WebhookBody> {
    const res = await create(api, channelId, { name });
    if (res.status !== 200) throw new Error(`webhook not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as WebhookBody;
  }

  /** `setup()` and a webhook named `name` in its text channel. */
  async function setupWithWebhook(name: string) {
    const setup = await kit.setupWithChannels();
    return { ...setup, hook: await webhook(setup.api, setup.text.id, name) };
  }

  /** A bot in the guild holding MANAGE_WEBHOOKS (guild-wide) through a role. */
  function addManager(guildId: string) {
    return kit.addBotWithRole(guildId, P.ManageWebhooks | P.ViewChannel);
  }

  return { ...kit, setup, setupWithWebhook, addChannel, create, webhook, addManager };
}
