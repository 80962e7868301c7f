import type { APIApplication } from "discord-api-types/v10";
import type { Application } from "~/generated/prisma/client.ts";

/**
 * The fields of the application object every answer carries; `flags_new` holds every flag bit
 * as a string beside the 32-bit `flags` (spec 9).
 */
export type ApplicationBaseObject = Pick<
  APIApplication,
  "id" | "name" | "icon" | "description" | "bot_public" | "bot_require_code_grant" | "verify_key" | "flags"
> & {
  flags_new: string;
};

/** The application object's common fields (GET /applications/@me, GET /oauth2/@me). */
export function toApplicationBase(
  app: Pick<Application, "id" | "name" | "icon" | "description" | "botPublic" | "botRequireCodeGrant" | "flags">,
  verifyKey: string,
): ApplicationBaseObject {
  return {
    id: app.id,
    name: app.name,
    icon: app.icon,
    description: app.description,
    bot_public: app.botPublic,
    bot_require_code_grant: app.botRequireCodeGrant,
    verify_key: verifyKey,
    flags: app.flags,
    flags_new: String(app.flags),
  };
}
