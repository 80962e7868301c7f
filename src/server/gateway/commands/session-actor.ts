import type { Actor } from "~/server/auth/actor.ts";
import type { GatewaySessionView } from "../gateway-types.ts";

/** The bot a gateway session acts as, for the services its commands call. */
export function sessionActor(view: GatewaySessionView): Actor {
  return { kind: "bot", userId: view.botUserId, applicationId: view.applicationId, scopes: new Set() };
}
