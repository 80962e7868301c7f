import { apiReferenceRoutes } from "~/server/api-reference/api-reference.rest.ts";
import { auditRoutes } from "~/server/audit/audit.rest.ts";
import { channelRoutes } from "~/server/channels/channel.rest.ts";
import { commandRoutes } from "~/server/commands/command.rest.ts";
import { voiceStatusRoutes } from "~/server/channels/voice-status.rest.ts";
import { gatewayRoutes } from "~/server/gateway/gateway.rest.ts";
import { dmRoutes } from "~/server/dms/dm.rest.ts";
import { emojiRoutes } from "~/server/emojis/emoji.rest.ts";
import { guildRoutes } from "~/server/guilds/guild.rest.ts";
import { memberRoutes } from "~/server/members/member.rest.ts";
import { messageRoutes } from "~/server/messages/message.rest.ts";
import { reactionRoutes } from "~/server/reactions/reaction.rest.ts";
import { messageSearchRoutes } from "~/server/messages/message-search.rest.ts";
import { inviteRoutes } from "~/server/invites/invite.rest.ts";
import { lobbyRoutes } from "~/server/lobbies/lobby.rest.ts";
import { oauth2Routes } from "~/server/oauth2/oauth2.rest.ts";
import { guildConfigRoutes } from "~/server/guild-config/guild-config.rest.ts";
import { integrationRoutes } from "~/server/integrations/integration.rest.ts";
import { stickerRoutes } from "~/server/stickers/sticker.rest.ts";
import { scheduledEventRoutes } from "~/server/scheduled-events/scheduled-event.rest.ts";
import { applicationRoutes } from "~/server/applications/application.rest.ts";
import { roleRoutes } from "~/server/roles/role.rest.ts";
import { threadRoutes } from "~/server/threads/thread.rest.ts";
import { connectionRoutes } from "~/server/users/connection.rest.ts";
import { userRoutes } from "~/server/users/user.rest.ts";
import { webhookRoutes } from "~/server/webhooks/webhook.rest.ts";
import { partnerSdkRoutes } from "~/server/partner-sdk/partner-sdk.rest.ts";
import type { Route } from "./route.ts";

/** The REST route table: every domain contributes its rows. */
export const ROUTES: readonly Route[] = [
  ...guildRoutes,
  ...channelRoutes,
  ...threadRoutes,
  ...messageRoutes,
  ...reactionRoutes,
  ...messageSearchRoutes,
  ...voiceStatusRoutes,
  ...roleRoutes,
  ...emojiRoutes,
  ...dmRoutes,
  ...stickerRoutes,
  ...memberRoutes,
  ...inviteRoutes,
  ...guildConfigRoutes,
  ...integrationRoutes,
  ...scheduledEventRoutes,
  ...applicationRoutes,
  ...commandRoutes,
  ...userRoutes,
  ...connectionRoutes,
  ...auditRoutes,
  ...webhookRoutes,
  ...lobbyRoutes,
  ...partnerSdkRoutes,
  ...gatewayRoutes,
  ...oauth2Routes,
  // Last, and given the finished table: the API reference describes every row above.
  ...apiReferenceRoutes(() => ROUTES),
];
