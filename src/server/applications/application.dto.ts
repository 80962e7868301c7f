import type { Application } from "~/generated/prisma/client.ts";

/** The fields of the platform's application object every answer carries (GET /applications/@me, GET /oauth2/@me). */
export function toApplicationBase(
  app: Pick<Application, "id" | "name" | "icon" | "description" | "botPublic" | "botRequireCodeGrant" | "flags">,
  verifyKey: string,
) {
  return {
    id: app.id,
    name: app.name,
    icon: app.icon,
    description: app.description,
    bot_public: app.botPublic,
    bot_require_code_grant: app.botRequireCodeGrant,
    verify_key: verifyKey,
    flags: app.flags,
  };
}
