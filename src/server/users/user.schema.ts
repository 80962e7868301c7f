import { z } from "zod";
import { queryInt, ZQueryBoolean, ZSnowflake } from "~/server/validation/fields.ts";

export const CURRENT_USER_GUILDS_MAX = 200;

/** GET /users/@me/guilds query. */
export const ZCurrentUserGuildsQuerySchema = z.object({
  before: ZSnowflake.optional(),
  after: ZSnowflake.optional(),
  limit: queryInt(1, CURRENT_USER_GUILDS_MAX).optional(),
  with_counts: ZQueryBoolean.optional(),
  shard: queryInt(0, 2 ** 31 - 1).optional(),
});
export type TCurrentUserGuildsQuery = z.output<typeof ZCurrentUserGuildsQuerySchema>;
