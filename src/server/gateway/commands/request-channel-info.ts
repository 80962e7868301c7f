// Request Channel Info (op 43): answered with a Channel Info dispatch on the asking connection.
import { GatewayDispatchEvents } from "discord-api-types/v10";
import { z } from "zod";
import { readChannelInfo } from "~/server/channels/channel-info.service.ts";
import { ApiError } from "~/server/errors.ts";
import { ZSnowflakeSchema } from "~/server/snowflake/snowflake.ts";
import { defineCommand } from "../gateway-command.ts";
import { sessionActor } from "./session-actor.ts";

const ZRequestChannelInfoSchema = z.object({ guild_id: ZSnowflakeSchema, fields: z.array(z.string().max(64)).max(16) }).loose();

export const requestChannelInfo = defineCommand(ZRequestChannelInfoSchema, async (context, payload) => {
  // A guild that is not the session's (another shard's, or not the bot's) gets no answer.
  if (!context.view.guildIds.has(payload.guild_id)) return;
  let info;
  try {
    info = await readChannelInfo({ db: context.db, actor: sessionActor(context.view) }, { guildId: payload.guild_id, fields: payload.fields });
  } catch (error) {
    // The bot left the guild since the session heard of it.
    if (error instanceof ApiError) return;
    throw error;
  }
  if (!context.isClosed()) context.send(GatewayDispatchEvents.ChannelInfo, info);
});
