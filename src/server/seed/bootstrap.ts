import { randomBytes } from "node:crypto";
import type { Actor, OAuth2Scope } from "~/server/auth/actor.ts";
import type { PrivilegedIntent } from "~/server/applications/application.schema.ts";
import { createApplication, createUser, editApplication, issueBearerToken } from "~/server/applications/application.service.ts";
import { limitedIntentFlags } from "~/server/applications/intents.ts";
import type { Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { resetClientSecret } from "~/server/oauth2/client-settings.ts";

/** What a user's bearer token from `bootstrap` may do: what a game's players would grant. */
export const BOOTSTRAP_USER_SCOPES: readonly OAuth2Scope[] = ["identify", "guilds", "guilds.join", "sdk.social_layer"];

export type BootstrapCredentials = {
  application_id: string;
  bot_user_id: string;
  bot_token: string;
  user_id: string;
  user_bearer: string;
  guild_id: string;
  /** The application's OAuth2 client secret, reset once here (shown once). */
  client_secret: string;
};

/**
 * Fresh credentials to start calling the API with: an application (owned by a new user)
 * with its bot, a bearer token of that user granted to the application, and a guild the
 * bot owns, and the application's OAuth2 client secret. Each call makes new ones; earlier ones stay valid. The application holds no
 * privileged intents unless asked, as on the platform; those asked for are switched on in
 * their limited form, as the app itself would (PATCH /applications/@me).
 */
export async function createBootstrapCredentials(db: Db, options: { intents?: readonly PrivilegedIntent[] } = {}): Promise<BootstrapCredentials> {
  const suffix = randomBytes(3).toString("hex");
  const user = await runChange({ db, actor: null }, ({ tx }) => createUser(tx, { username: `user_${suffix}` }));
  const { application, botUser, botToken } = await runChange({ db, actor: null }, ({ tx }) =>
    createApplication(tx, { name: `Bot ${suffix}`, ownerId: user.id }),
  );
  const userBearer = await issueBearerToken({ db, actor: null }, { userId: user.id, applicationId: application.id, scopes: BOOTSTRAP_USER_SCOPES });
  const botActor: Actor = { kind: "bot", userId: botUser.id, applicationId: application.id, scopes: new Set() };
  if (options.intents?.length) await editApplication({ db, actor: botActor }, application.id, { intents: { flags: limitedIntentFlags(options.intents) } });
  const guild = await createGuild({ db, actor: botActor }, { name: `Guild ${suffix}` });
  const clientSecret = await resetClientSecret({ db, actor: null }, application.id);
  return {
    application_id: application.id,
    bot_user_id: botUser.id,
    bot_token: botToken,
    user_id: user.id,
    user_bearer: userBearer,
    guild_id: guild.id,
    client_secret: clientSecret,
  };
}
