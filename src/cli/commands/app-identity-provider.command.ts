import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { optionalString, parseOptions } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "<application id> [--type OIDC --issuer <url> --audience <client id> --jwks-uri <url>] [--remove] [--json]";

export const appIdentityProvider: CliCommand = {
  words: ["app", "identity-provider"],
  usage: USAGE,
  summary: "Show an app's identity providers for provisional accounts (partner SDK); set an OIDC provider, or --remove it",
  options: {
    type: { type: "string" },
    issuer: { type: "string" },
    audience: { type: "string" },
    "jwks-uri": { type: "string" },
    remove: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(args) {
    const [applicationId, ...rest] = args.positionals;
    if (!applicationId || rest.length > 0) throw new Error(`Usage: app identity-provider ${USAGE}`);
    const { ZIdentityProviderSettingsSchema, listIdentityProviders, removeIdentityProvider, setIdentityProvider } =
      await import("~/server/partner-sdk/identity-providers.ts");
    const type = optionalString(args, "type");
    const settings = ["issuer", "audience", "jwks-uri"].some((name) => optionalString(args, name) !== undefined);
    if (args.values.remove && settings) throw new Error("--remove takes only --type.");
    if (args.values.remove && !type) throw new Error("--remove needs --type.");
    const wanted =
      settings || (type && !args.values.remove)
        ? parseOptions(
            ZIdentityProviderSettingsSchema,
            { type, issuer: optionalString(args, "issuer"), audience: optionalString(args, "audience"), jwks_uri: optionalString(args, "jwks-uri") },
            { jwks_uri: "jwks-uri" },
          )
        : null;
    const providers = await withDatabase(async (db) => {
      const ctx = { db, actor: null };
      if (wanted) await setIdentityProvider(ctx, applicationId, wanted);
      if (args.values.remove && type && !(await removeIdentityProvider(ctx, applicationId, type)))
        throw new Error(`Application ${applicationId} has no ${type} identity provider.`);
      return listIdentityProviders(db, applicationId);
    });
    if (args.values.json) {
      print(JSON.stringify({ application_id: applicationId, identity_providers: providers }));
      return;
    }
    if (providers.length === 0) print("No identity providers: only the Bot endpoint makes provisional accounts.");
    for (const provider of providers) print(`${provider.type}: issuer ${provider.issuer}, audience ${provider.audience}, keys ${provider.jwks_uri}`);
  },
};
