// The partner SDK's request bodies (provisional accounts), as the platform's API description has them.
import { z } from "zod";
import { ZSnowflakeSchema } from "~/server/snowflake/snowflake.ts";

/** Every external_auth_type the platform knows; which of them can be verified here is external-credentials.ts's to say. */
const EXTERNAL_AUTH_TYPES = [
  "OIDC",
  "EPIC_ONLINE_SERVICES_ACCESS_TOKEN",
  "EPIC_ONLINE_SERVICES_ID_TOKEN",
  "STEAM_SESSION_TICKET",
  "UNITY_SERVICES_ID_TOKEN",
  "DISCORD_BOT_ISSUED_ACCESS_TOKEN",
  "APPLE_ID_TOKEN",
  "PLAYSTATION_NETWORK_ID_TOKEN",
] as const;
export const ZExternalAuthTypeSchema = z.enum(EXTERNAL_AUTH_TYPES);
export type ExternalAuthType = z.infer<typeof ZExternalAuthTypeSchema>;

/** The auth type of identities the game's backend vouches for with its Bot token (external_user_id). */
export const BOT_ISSUED: ExternalAuthType = "DISCORD_BOT_ISSUED_ACCESS_TOKEN";

/** A player's external credentials, with the game's OAuth2 client (a public client sends no secret). */
export const ZExternalCredentialsBodySchema = z.object({
  client_id: ZSnowflakeSchema,
  client_secret: z.string().max(1024).nullish(),
  external_auth_type: ZExternalAuthTypeSchema,
  external_auth_token: z.string().min(1).max(10240),
});
export type ExternalCredentialsBody = z.infer<typeof ZExternalCredentialsBodySchema>;

const ZExternalUserIdSchema = z.string().min(1).max(1024);

/** POST /partner-sdk/token/bot: the game's own id for the player, and the name to show. */
export const ZBotTokenBodySchema = z.object({
  external_user_id: ZExternalUserIdSchema,
  preferred_global_name: z.string().min(1).max(32).nullish(),
});

/** POST /partner-sdk/provisional-accounts/unmerge/bot. */
export const ZBotUnmergeBodySchema = z.object({ external_user_id: ZExternalUserIdSchema });
