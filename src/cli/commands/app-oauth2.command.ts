import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { optionalString } from "../options.ts";
import { print } from "../cli-output.ts";

const USAGE = "<application id> [--reset-secret] [--add-redirect URI]... [--remove-redirect URI]... [--public-client on|off] [--json]";

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((each): each is string => typeof each === "string") : []);

export const appOauth2: CliCommand = {
  words: ["app", "oauth2"],
  usage: USAGE,
  summary:
    "Show an app's OAuth2 client (client id, redirect URIs, public or confidential); --reset-secret prints a new client secret once, " +
    "--add-redirect / --remove-redirect change the registered redirect URIs, --public-client on|off switches PKCE-only clients",
  options: {
    "reset-secret": { type: "boolean" },
    "add-redirect": { type: "string", multiple: true },
    "remove-redirect": { type: "string", multiple: true },
    "public-client": { type: "string" },
    json: { type: "boolean" },
  },
  async run(args) {
    const [applicationId, ...rest] = args.positionals;
    if (!applicationId || rest.length > 0) throw new Error(`Usage: app oauth2 ${USAGE}`);
    const publicClient = optionalString(args, "public-client");
    if (publicClient !== undefined && publicClient !== "on" && publicClient !== "off") throw new Error("--public-client takes on or off.");
    const { changeRedirectUri, redirectUrisOf, resetClientSecret } = await import("~/server/oauth2/client-settings.ts");
    const { editApplication } = await import("~/server/applications/application.service.ts");
    const result = await withDatabase(async (db) => {
      const ctx = { db, actor: null };
      const read = () =>
        db.application.findUnique({ where: { id: applicationId }, select: { redirectUris: true, publicClient: true, clientSecretHash: true } });
      if (!(await read())) throw new Error(`Unknown application ${applicationId}`);
      for (const uri of strings(args.values["add-redirect"])) await changeRedirectUri(ctx, applicationId, { add: uri });
      for (const uri of strings(args.values["remove-redirect"])) await changeRedirectUri(ctx, applicationId, { remove: uri });
      if (publicClient !== undefined) await editApplication(ctx, applicationId, { publicClient: publicClient === "on" });
      const secret = args.values["reset-secret"] ? await resetClientSecret(ctx, applicationId) : undefined;
      const client = (await read())!;
      return {
        client_id: applicationId,
        ...(secret !== undefined && { client_secret: secret }),
        has_client_secret: client.clientSecretHash !== null,
        redirect_uris: redirectUrisOf(client),
        public_client: client.publicClient,
      };
    });
    if (args.values.json) {
      print(`${JSON.stringify(result)}`);
      return;
    }
    print(`Client id        ${result.client_id}`);
    if (result.client_secret !== undefined) print(`Client secret    ${result.client_secret}   (shown once: only its hash is stored)`);
    else print(`Client secret    ${result.has_client_secret ? "set (--reset-secret for a new one)" : "none yet (--reset-secret makes one)"}`);
    print(`Redirect URIs    ${result.redirect_uris.length > 0 ? result.redirect_uris.join("  ") : "none"}`);
    print(`Client type      ${result.public_client ? "public (no secret; PKCE required)" : "confidential"}`);
  },
};
