import { z } from "zod";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** POST /users/@me/channels: a DM with one user (group DMs need access tokens of users, which bots here never hold). */
export const ZCreateDmBodySchema = z.object({ recipient_id: ZSnowflakeSchema });
export type TCreateDmBody = z.infer<typeof ZCreateDmBodySchema>;
