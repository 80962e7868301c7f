import { noContent, ok, route } from "~/server/rest/route.ts";
import { ZBotTokenBodySchema, ZBotUnmergeBodySchema, ZExternalCredentialsBodySchema } from "./partner-sdk.schema.ts";
import { botProvisionalToken, exchangeExternalCredentials } from "./provisional-accounts.service.ts";
import { unmergeWithBot, unmergeWithCredentials } from "./provisional-unmerge.ts";

// The partner SDK's provisional accounts: the credential endpoints are called with the game's
// OAuth2 client in the body and no Authorization; the Bot endpoints by the game's backend.
const OWN = "a provisional account of the caller's own application";

export const partnerSdkRoutes = [
  route({
    method: "POST",
    path: "/partner-sdk/token",
    auth: "none",
    body: ZExternalCredentialsBodySchema,
    handler: async ({ ctx, body }) => ok(await exchangeExternalCredentials(ctx, body)),
  }),
  route({
    method: "POST",
    path: "/partner-sdk/token/bot",
    auth: "bot",
    open: { to: "outsider", why: OWN },
    body: ZBotTokenBodySchema,
    handler: async ({ ctx, body }) => ok(await botProvisionalToken(ctx, body)),
  }),
  route({
    method: "POST",
    path: "/partner-sdk/provisional-accounts/unmerge",
    auth: "none",
    body: ZExternalCredentialsBodySchema,
    handler: async ({ ctx, body }) => {
      await unmergeWithCredentials(ctx, body);
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/partner-sdk/provisional-accounts/unmerge/bot",
    auth: "bot",
    body: ZBotUnmergeBodySchema,
    handler: async ({ ctx, body }) => {
      await unmergeWithBot(ctx, body);
      return noContent();
    },
  }),
];
