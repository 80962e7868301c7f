import { z } from "zod";
import { ZPresenceSchema } from "~/server/gateway/commands.ts";
import { ZCreateMessageBodySchema } from "~/server/messages/message.schema.ts";
import { BOOTSTRAP_USER_SCOPES } from "~/server/seed/bootstrap.ts";
import { ZGlobalNameSchema, ZUsernameSchema } from "~/server/users/user.schema.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** POST /__twin/users: a person, and a bearer token granted to an application when asked (the scopes a game's players grant by default). */
export const ZTwinUserBodySchema = z.object({
  username: ZUsernameSchema,
  global_name: ZGlobalNameSchema.nullish(),
  bearer_for_application: ZSnowflakeSchema.optional(),
  scopes: z
    .array(z.string())
    .min(1)
    .default([...BOOTSTRAP_USER_SCOPES]),
});

/** Who acts, in a body. */
const ZActingUserSchema = z.object({ user_id: ZSnowflakeSchema });

/** POST /__twin/invites/:code/accept */
export const ZTwinInviteAcceptBodySchema = ZActingUserSchema;

/** POST /__twin/channels/:channelId/messages: the REST message body, and who posts it. */
export const ZTwinMessageBodySchema = ZCreateMessageBodySchema.extend(ZActingUserSchema.shape);

/** PUT /__twin/guilds/:guildId/voice-states/:userId: join or move (a channel), or leave (null), as Update Voice State does. */
export const ZTwinVoiceStateBodySchema = z.object({
  channel_id: ZSnowflakeSchema.nullable(),
  self_mute: z.boolean().default(false),
  self_deaf: z.boolean().default(false),
});

/** An activity as a gateway client sends it; Playing (0) unless told. */
const ZTwinActivitySchema = ZPresenceSchema.shape.activities.element.extend({ type: ZPresenceSchema.shape.activities.element.shape.type.default(0) });

/** PUT /__twin/users/:userId/presence: what the person's client sets (op 3); `offline` closes the client. */
export const ZTwinPresenceBodySchema = z.object({
  status: ZPresenceSchema.shape.status,
  activities: z.array(ZTwinActivitySchema).max(32).default([]),
  afk: z.boolean().default(false),
  since: z.number().int().nonnegative().nullable().default(null),
});
