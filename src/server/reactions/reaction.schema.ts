import { z } from "zod";
import { ZSnowflakeSchema } from "~/server/snowflake/snowflake.ts";
import { queryInt } from "~/server/validation/fields.ts";

/** Distinct emojis a message may carry (30010 past it). */
export const REACTION_EMOJIS_MAX = 20;

/** GET .../reactions/{emoji}: users who reacted, by id after `after`; limit 1-100 (25); type 0 normal, 1 super reactions. */
export const ZListReactionsQuerySchema = z.object({
  type: queryInt(0, 1).optional(),
  after: ZSnowflakeSchema.optional(),
  limit: queryInt(1, 100).optional(),
});
export type TListReactionsQuery = z.output<typeof ZListReactionsQuerySchema>;
