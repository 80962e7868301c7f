// Who is asking at the token and revoke endpoints (RFC 6749 2.3): a confidential client with its
// secret, in the Authorization header (client_secret_basic) or the form (client_secret_post), or
// a public client by its id alone (none), which must then prove its code with PKCE.
import type { Application } from "~/generated/prisma/client.ts";
import type { Db } from "~/server/db/client.ts";
import { isClientSecret } from "./client-settings.ts";
import { OAuth2Error } from "./oauth2-error.ts";
import { optionalParam, type TokenForm } from "./token-request.ts";

type ClientAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

export type AuthenticatedClient = { application: Application; method: ClientAuthMethod };

type Credentials = { clientId: string; secret: string | null; method: ClientAuthMethod };

const invalidClient = (description: string) => new OAuth2Error("invalid_client", description);

/**
 * The client's credentials as sent. A Basic header wins; other Authorization schemes (a bot or
 * bearer token) say nothing about the client and are ignored.
 */
function clientCredentialsOf(authorization: string | null, form: TokenForm): Credentials {
  const basic = /^basic\s+(.+)$/i.exec(authorization?.trim() ?? "");
  if (basic) {
    const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw invalidClient("The Basic credentials must be client_id:client_secret.");
    let clientId: string;
    let secret: string;
    try {
      // RFC 6749 2.3.1: each part is form-urlencoded before it is joined.
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
    } catch {
      throw invalidClient("The Basic credentials are not URL-encoded.");
    }
    if (optionalParam(form, "client_secret") !== undefined) throw new OAuth2Error("invalid_request", "Send the client secret one way only.");
    const formId = optionalParam(form, "client_id");
    if (formId !== undefined && formId !== clientId) throw invalidClient("client_id does not match the Basic credentials.");
    return { clientId, secret, method: "client_secret_basic" };
  }
  const clientId = optionalParam(form, "client_id");
  if (clientId === undefined) throw invalidClient("Client authentication is required.");
  const secret = optionalParam(form, "client_secret") ?? null;
  return { clientId, secret, method: secret === null ? "none" : "client_secret_post" };
}

/** The authenticated client, or invalid_client (401). */
export async function authenticateClient(db: Db, authorization: string | null, form: TokenForm): Promise<AuthenticatedClient> {
  const { clientId, secret, method } = clientCredentialsOf(authorization, form);
  const application = /^\d{1,20}$/.test(clientId) ? await db.application.findUnique({ where: { id: clientId } }) : null;
  if (!application) throw invalidClient("Unknown client.");
  if (secret === null) {
    if (!application.publicClient) throw invalidClient("This client is confidential: authenticate with its client secret.");
    return { application, method };
  }
  if (!application.clientSecretHash) throw invalidClient("This client has no secret yet: reset it first.");
  if (!isClientSecret(application, secret)) throw invalidClient("The client secret is wrong.");
  return { application, method };
}
