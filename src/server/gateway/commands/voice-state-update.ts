// Update Voice State (op 4): a bot joins, moves in or leaves a guild's voice. Refused requests
// get no answer, as on the platform (its voice connection guide: no Voice State Update and no
// Voice Server Update when the bot may not join or the channel is full).
import { randomBytes } from "node:crypto";
import { GatewayDispatchEvents, type GatewayVoiceServerUpdateDispatchData } from "discord-api-types/v10";
import { z } from "zod";
import { ApiError } from "~/server/errors.ts";
import { updateOwnVoiceState } from "~/server/members/voice.service.ts";
import { ZSnowflakeSchema } from "~/server/snowflake/snowflake.ts";
import { defineCommand } from "../gateway-command.ts";
import { sessionActor } from "./session-actor.ts";

const ZVoiceStateUpdateSchema = z
  .object({ guild_id: ZSnowflakeSchema, channel_id: ZSnowflakeSchema.nullable(), self_mute: z.boolean(), self_deaf: z.boolean() })
  .loose();

export const voiceStateUpdate = defineCommand(ZVoiceStateUpdateSchema, async (context, payload) => {
  const { view } = context;
  // A guild that is not the session's (another shard's, or not the bot's) is ignored.
  if (!view.guildIds.has(payload.guild_id)) return;
  let result;
  try {
    result = await updateOwnVoiceState(
      { db: context.db, actor: sessionActor(view) },
      { guildId: payload.guild_id, channelId: payload.channel_id, selfMute: payload.self_mute, selfDeaf: payload.self_deaf, gatewaySessionId: view.sessionId },
    );
  } catch (error) {
    if (error instanceof ApiError) return;
    throw error;
  }
  if (result !== "connected" || context.isClosed()) return;
  // Guildhall runs no voice servers: the platform's way of saying none is available is a
  // null endpoint, and a client waits for a later Voice Server Update before connecting.
  context.send(GatewayDispatchEvents.VoiceServerUpdate, {
    token: randomBytes(16).toString("hex"),
    guild_id: payload.guild_id,
    endpoint: null,
  } satisfies GatewayVoiceServerUpdateDispatchData);
});
