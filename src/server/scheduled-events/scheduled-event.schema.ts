import { GuildScheduledEventEntityType, GuildScheduledEventPrivacyLevel } from "discord-api-types/v10";
import { z } from "zod";
import { lengthBetween, ZQueryBooleanSchema, ZSnowflakeSchema, ZTimestampSchema } from "~/server/validation/fields.ts";

const EVENT_NAME_MAX = 100;
const EVENT_DESCRIPTION_MAX = 1000;
const EVENT_LOCATION_MAX = 100;

/** POST /guilds/{guild.id}/scheduled-events */
export const ZScheduledEventCreateBodySchema = z.object({
  name: lengthBetween(1, EVENT_NAME_MAX, { trim: true }),
  description: lengthBetween(0, EVENT_DESCRIPTION_MAX).nullable().optional(),
  channel_id: ZSnowflakeSchema.nullable().optional(),
  entity_metadata: z
    .object({ location: lengthBetween(1, EVENT_LOCATION_MAX).optional() })
    .nullable()
    .optional(),
  privacy_level: z.literal(GuildScheduledEventPrivacyLevel.GuildOnly),
  scheduled_start_time: ZTimestampSchema,
  scheduled_end_time: ZTimestampSchema.nullable().optional(),
  entity_type: z.union([
    z.literal(GuildScheduledEventEntityType.StageInstance),
    z.literal(GuildScheduledEventEntityType.Voice),
    z.literal(GuildScheduledEventEntityType.External),
  ]),
});
export type TScheduledEventCreateBody = z.output<typeof ZScheduledEventCreateBodySchema>;

export const ZScheduledEventListQuerySchema = z.object({ with_user_count: ZQueryBooleanSchema.optional() });
