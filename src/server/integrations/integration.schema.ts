import { z } from "zod";
import { lengthBetween, ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** GET /guilds/{guild.id}/integrations answers at most this many; more cannot be reached (spec 8). */
export const GUILD_INTEGRATIONS_MAX = 50;

export type IntegrationType = "discord" | "twitch" | "youtube" | "guild_subscription";

/** Kinds an operator adds; "discord" integrations come only from a bot joining. */
const EXTERNAL_INTEGRATION_TYPES = ["twitch", "youtube", "guild_subscription"] as const;

/** Scopes a bot's integration holds when it joins (DiscordIntegrationResponse allows these). */
export const BOT_INTEGRATION_SCOPES = ["bot", "applications.commands"] as const;

const INTEGRATION_NAME_MAX = 100;

/** An integration of another service, as the CLI and the demo seed add one. */
export const ZIntegrationAddSchema = z
  .object({
    guild_id: ZSnowflakeSchema,
    type: z.enum(EXTERNAL_INTEGRATION_TYPES),
    name: lengthBetween(1, INTEGRATION_NAME_MAX, { trim: true }),
    account_id: lengthBetween(1, INTEGRATION_NAME_MAX, { trim: true }),
    account_name: lengthBetween(1, INTEGRATION_NAME_MAX, { trim: true }),
    /** Whose account on that service it is. */
    user_id: ZSnowflakeSchema.optional(),
  })
  // A stream or channel integration is always some user's connected account.
  .refine((input) => input.type === "guild_subscription" || input.user_id !== undefined, {
    path: ["user_id"],
    message: "Twitch and YouTube integrations belong to a user.",
  });
export type TIntegrationAdd = z.output<typeof ZIntegrationAddSchema>;
