// The shape every grant of the token endpoint has, so the grant table (token.service.ts) can
// hold one per grant_type and a grant-time rule can be added to one without touching the others.
import type { Db } from "~/server/db/client.ts";
import type { GuildObject } from "~/server/guilds/guild.dto.ts";
import type { WebhookObject } from "~/server/webhooks/webhook.dto.ts";
import type { AuthenticatedClient } from "../client-auth.ts";
import type { TokenGrant } from "../grants.ts";
import type { TokenForm } from "../token-request.ts";

/** The platform's token response, with what the flow made: the guild a bot joined, the webhook created, the id_token. */
export type TokenResponse = TokenGrant & { guild?: GuildObject; webhook?: WebhookObject; id_token?: string };

export type GrantRequest = { db: Db; client: AuthenticatedClient; form: TokenForm };

export type Grant = (request: GrantRequest) => Promise<TokenResponse>;
