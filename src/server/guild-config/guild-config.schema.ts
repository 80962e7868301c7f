import { z } from "zod";
import { lengthBetween, ZSnowflakeSchema, ZTimestampSchema } from "~/server/validation/fields.ts";

export const WELCOME_DESCRIPTION_MAX = 140;
export const WELCOME_CHANNELS_MAX = 5;
export const WELCOME_CHANNEL_DESCRIPTION_MAX = 50;
/** Incident actions reach at most this far ahead (spec 8). */
export const INCIDENT_ACTION_MAX_MS = 24 * 60 * 60 * 1000;

const ZWelcomeChannelSchema = z.object({
  channel_id: ZSnowflakeSchema,
  description: lengthBetween(1, WELCOME_CHANNEL_DESCRIPTION_MAX),
  emoji_id: ZSnowflakeSchema.nullable().optional(),
  emoji_name: z.string().max(100).nullable().optional(),
});
export type TWelcomeChannel = z.output<typeof ZWelcomeChannelSchema>;

/** PATCH /guilds/{guild.id}/welcome-screen: every field optional and nullable. */
export const ZWelcomeScreenBodySchema = z.object({
  enabled: z.boolean().nullable().optional(),
  welcome_channels: z.array(ZWelcomeChannelSchema).max(WELCOME_CHANNELS_MAX).nullable().optional(),
  description: lengthBetween(0, WELCOME_DESCRIPTION_MAX).nullable().optional(),
});
export type TWelcomeScreenBody = z.output<typeof ZWelcomeScreenBodySchema>;

/** PUT /guilds/{guild.id}/incident-actions: null ends an action. */
export const ZIncidentActionsBodySchema = z.object({
  invites_disabled_until: ZTimestampSchema.nullable().optional(),
  dms_disabled_until: ZTimestampSchema.nullable().optional(),
});
export type TIncidentActionsBody = z.output<typeof ZIncidentActionsBodySchema>;
