import { noContent, route } from "~/server/rest/route.ts";
import { ZVoiceStatusBodySchema } from "./voice-status.schema.ts";
import { setVoiceChannelStatus } from "./voice-status.service.ts";

export const voiceStatusRoutes = [
  route({
    method: "PUT",
    path: "/channels/:channelId/voice-status",
    auth: "bot",
    body: ZVoiceStatusBodySchema.default({}),
    handler: async ({ ctx, params, body }) => {
      await setVoiceChannelStatus(ctx, { channelId: params.channelId, body });
      return noContent();
    },
  }),
];
