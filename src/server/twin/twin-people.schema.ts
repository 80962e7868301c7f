import { z } from "zod";
import { ZPresence } from "~/server/gateway/commands.ts";
import { ZCreateMessageBody } from "~/server/messages/message.schema.ts";
import { BOOTSTRAP_USER_SCOPES } from "~/server/seed/bootstrap.ts";
import { ZGlobalName, ZUsername } from "~/server/users/user.schema.ts";
import { ZSnowflake } from "~/server/validation/fields.ts";

/** POST /__twin/users: a person, and a bearer token granted to an application when asked (the scopes a game's players grant by default). */
export const ZTwinUserBody = z.object({
  username: ZUsername,
  global_name: ZGlobalName.nullish(),
  bearer_for_application: ZSnowflake.optional(),
  scopes: z
    .array(z.string())
    .min(1)
    .default([...BOOTSTRAP_USER_SCOPES]),
});

/** Who acts, in a body. */
const ZActingUser = z.object({ user_id: ZSnowflake });

/** POST /__twin/invites/:code/accept */
export const ZTwinInviteAcceptBody = ZActingUser;

/** POST /__twin/channels/:channelId/messages: the REST message body, and who posts it. */
export const ZTwinMessageBody = ZCreateMessageBody.extend(ZActingUser.shape);

/** PUT /__twin/guilds/:guildId/voice-states/:userId: join or move (a channel), or leave (null), as Update Voice State does. */
export const ZTwinVoiceStateBody = z.object({
  channel_id: ZSnowflake.nullable(),
  self_mute: z.boolean().default(false),
  self_deaf: z.boolean().default(false),
});

/** An activity as a gateway client sends it; Playing (0) unless told. */
const ZTwinActivity = ZPresence.shape.activities.element.extend({ type: ZPresence.shape.activities.element.shape.type.default(0) });

/** PUT /__twin/users/:userId/presence: what the person's client sets (op 3); `offline` closes the client. */
export const ZTwinPresenceBody = z.object({
  status: ZPresence.shape.status,
  activities: z.array(ZTwinActivity).max(32).default([]),
  afk: z.boolean().default(false),
  since: z.number().int().nonnegative().nullable().default(null),
});
