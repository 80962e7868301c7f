import { ROUTES } from "~/server/rest/routes.ts";
import { openApiDocument } from "./openapi.ts";
import { referenceView, type ReferenceSection } from "./reference-view.ts";

let view: ReferenceSection[] | undefined;

/** The reference page's view of this server's OpenAPI document, read once per process. */
export function apiReference(): ReferenceSection[] {
  view ??= referenceView(openApiDocument(ROUTES));
  return view;
}
