import { ButtonStyle, ChannelType, ComponentType } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import type { ServiceContext } from "~/server/context.ts";
import { sendMessage } from "~/server/messages/message.service.ts";
import { ZWebhookExecuteBodySchema } from "~/server/webhooks/webhook-execute.schema.ts";
import { executeWebhook } from "~/server/webhooks/webhook-execute.service.ts";
import { createWebhook } from "~/server/webhooks/webhook.service.ts";

type People = { friendId: string; bot: { userId: string; applicationId: string }; moderatorsRoleId: string };

/** A short conversation in #general (members, the demo bot with buttons, a webhook with an embed), once. */
export async function seedMessages(ctx: ServiceContext, guildId: string, people: People): Promise<string[]> {
  const { db } = ctx;
  const general = await db.channel.findFirstOrThrow({ where: { guildId, name: "general", type: ChannelType.GuildText }, select: { id: true } });
  if ((await db.message.count({ where: { channelId: general.id } })) > 0) return [];
  const rules = await db.channel.findFirstOrThrow({ where: { guildId, name: "rules", type: ChannelType.GuildText }, select: { id: true } });
  const say = (context: ServiceContext, content: string, extra: Record<string, unknown> = {}) =>
    sendMessage(context, { channelId: general.id, body: { content, ...extra }, files: [] });
  const friend: ServiceContext = { db, actor: dashboardActor(people.friendId) };
  const bot: ServiceContext = { db, actor: { kind: "bot", userId: people.bot.userId, applicationId: people.bot.applicationId, scopes: new Set() } };

  await say(ctx, `Welcome to the guild! Read <#${rules.id}> first and ping <@&${people.moderatorsRoleId}> if you need help.`);
  await say(friend, `Thanks <@${ctx.actor.userId}>! **Glad** to be here. Is the _weekly planning_ still on?`);
  await say(bot, "Pick the roles you want:", {
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Primary, label: "Announcements", custom_id: "role:news" },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, label: "Events", custom_id: "role:events" },
        ],
      },
    ],
  });
  const webhook = await createWebhook(ctx, { channelId: general.id, body: { name: "Release notes" } });
  const body = ZWebhookExecuteBodySchema.parse({
    content: "A new version is out.",
    embeds: [
      {
        title: "Guildhall 1.2",
        url: "https://example.com/releases/1.2",
        description: "Messages and webhooks, with a `Messages` view in the dashboard.",
        color: 0x5865f2,
        author: { name: "Release bot" },
        fields: [
          { name: "Added", value: "Webhooks, messages", inline: true },
          { name: "Fixed", value: "3 bugs", inline: true },
          { name: "Upgrade", value: "Run the migrations, then restart." },
        ],
        footer: { text: "Changelog" },
        timestamp: new Date().toISOString(),
      },
    ],
  });
  await executeWebhook(db, { webhookId: webhook.id, token: webhook.token!, query: { wait: true }, body, files: [] });
  return ["4 messages in #general", "a webhook"];
}
