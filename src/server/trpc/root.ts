import { applicationRouter } from "~/server/applications/application.router.ts";
import { auditRouter } from "~/server/audit/audit.router.ts";
import { commandRouter } from "~/server/commands/command.router.ts";
import { channelRouter } from "~/server/channels/channel.router.ts";
import { voiceStatusRouter } from "~/server/channels/voice-status.router.ts";
import { dmRouter } from "~/server/dms/dm.router.ts";
import { emojiRouter } from "~/server/emojis/emoji.router.ts";
import { guildConfigRouter } from "~/server/guild-config/guild-config.router.ts";
import { onboardingRouter } from "~/server/guild-config/onboarding.router.ts";
import { widgetRouter } from "~/server/guild-config/widget.router.ts";
import { guildRouter } from "~/server/guilds/guild.router.ts";
import { integrationRouter } from "~/server/integrations/integration.router.ts";
import { inviteRouter } from "~/server/invites/invite.router.ts";
import { liveRouter } from "~/server/live/live.router.ts";
import { lobbyRouter } from "~/server/lobbies/lobby.router.ts";
import { memberRouter } from "~/server/members/member.router.ts";
import { messageRouter } from "~/server/messages/message.router.ts";
import { oauth2Router } from "~/server/oauth2/oauth2.router.ts";
import { roleRouter } from "~/server/roles/role.router.ts";
import { stickerRouter } from "~/server/stickers/sticker.router.ts";
import { threadRouter } from "~/server/threads/thread.router.ts";
import { inspectorRouter } from "~/server/twin/inspector.router.ts";
import { accountRouter } from "~/server/users/account.router.ts";
import { webhookRouter } from "~/server/webhooks/webhook.router.ts";
import { createCallerFactory, createTRPCRouter } from "./init.ts";

export const appRouter = createTRPCRouter({
  guild: guildRouter,
  channel: channelRouter,
  thread: threadRouter,
  voiceStatus: voiceStatusRouter,
  role: roleRouter,
  member: memberRouter,
  audit: auditRouter,
  invite: inviteRouter,
  integration: integrationRouter,
  guildConfig: guildConfigRouter,
  widget: widgetRouter,
  onboarding: onboardingRouter,
  webhook: webhookRouter,
  emoji: emojiRouter,
  sticker: stickerRouter,
  message: messageRouter,
  dm: dmRouter,
  application: applicationRouter,
  command: commandRouter,
  lobby: lobbyRouter,
  account: accountRouter,
  oauth2: oauth2Router,
  live: liveRouter,
  inspector: inspectorRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
