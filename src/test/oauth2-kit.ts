// Shared setup for the authorization server's tests: applications as OAuth2 clients, a user's
// approval turned into a code (what the authorize page does), and form-encoded token requests.
import { runChange } from "~/server/events/change.ts";
import { fetchHandler } from "~/server/http/fetch-adapter.ts";
import { editApplication } from "~/server/applications/application.service.ts";
import { resetClientSecret, setRedirectUris } from "~/server/oauth2/client-settings.ts";
import { issueCode, recordAuthorization } from "~/server/oauth2/grants.ts";
import { isWellKnownPath, serveWellKnown } from "~/server/oauth2/metadata.ts";
import { makeBot } from "./factories.ts";
import type { TestApp } from "./test-app.ts";

export const REDIRECT_URI = "https://game.example/callback";

export function oauth2Kit(app: TestApp) {
  const operator = () => ({ db: app.db, actor: null });

  /** An application with a client secret and REDIRECT_URI registered; a public client when asked. */
  async function client(options: { publicClient?: boolean } = {}) {
    const made = await makeBot(app.db);
    const id = made.application.id;
    const secret = await resetClientSecret(operator(), id);
    await setRedirectUris(operator(), id, [REDIRECT_URI]);
    if (options.publicClient) await editApplication(operator(), id, { publicClient: true });
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
    return { ...made, id, secret, basic };
  }

  /** A user's approval of `scopes` for the client and the code the authorize page would redirect with. */
  async function approve(
    clientId: string,
    userId: string,
    scopes: string[],
    extra: { redirectUri?: string | null; codeChallenge?: string; nonce?: string; guildId?: string; webhookId?: string } = {},
  ): Promise<string> {
    return runChange(operator(), async (change) => {
      const authorization = await recordAuthorization(change, { applicationId: clientId, userId, scopes });
      return issueCode(change.tx, {
        applicationId: clientId,
        userId,
        authorizationId: authorization.id,
        scopes: scopes.join(" "),
        redirectUri: extra.redirectUri === undefined ? REDIRECT_URI : extra.redirectUri,
        codeChallenge: extra.codeChallenge ?? null,
        codeChallengeMethod: extra.codeChallenge ? "S256" : null,
        nonce: extra.nonce ?? null,
        guildId: extra.guildId ?? null,
        webhookId: extra.webhookId ?? null,
      });
    });
  }

  /** A form-encoded POST to an OAuth2 endpoint (`/oauth2/token`...), with an Authorization header when given. */
  function post(path: string, params: Record<string, string>, authorization?: string) {
    return app.as(authorization).post(path, undefined, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      rawBody: new URLSearchParams(params).toString(),
    });
  }

  const wellKnown = fetchHandler(serveWellKnown);
  /** What a client library's fetch reaches on this server: the well-known documents (served by server.ts) and the REST API. */
  function serverFetch(url: string, init?: RequestInit): Promise<Response> {
    const request = new Request(url, init);
    return isWellKnownPath(new URL(request.url).pathname) ? wellKnown(request) : app.dispatch(request);
  }

  return { client, approve, post, serverFetch };
}
