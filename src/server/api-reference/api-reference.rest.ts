import { ok, route, type Route } from "~/server/rest/route.ts";
import { openApiDocument } from "./openapi.ts";

/** The reference's row; it is given the table it describes (which includes it) rather than importing it. */
export function apiReferenceRoutes(table: () => readonly Route[]): Route[] {
  return [
    route({
      method: "GET",
      path: "/openapi.json",
      auth: "none",
      open: { to: "anyone", why: "the API's own description, the same for every caller, as the platform publishes its own" },
      handler: () => Promise.resolve(ok(openApiDocument(table()))),
    }),
  ];
}
