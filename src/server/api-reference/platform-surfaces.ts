// The official description's operations beyond the conformance subset, stored per surface in
// the subset's layout and merged into it: one description for the checker and the API
// reference. The bot surface holds the everyday bot calls (reactions, pins, typing, users and
// DMs, bulk delete, overwrites, archived threads, emojis, stickers, auto moderation); the
// commands surface the application command registry (global and guild commands, their
// permissions).
import botSurface from "./platform-bot-surface.json" with { type: "json" };
import commandsSurface from "./platform-commands.json" with { type: "json" };

/** Where the platform's docs and the description disagree on a status: `docs` null when the docs name none. */
type StatusNote = { operationId: string; docs: number | null; spec: number[]; note: string };

/** What the merge reads and writes of a description (platform-description.ts has the whole shape). */
type Description = {
  spec_defect_overrides: unknown[];
  operations: Record<string, { responses: Record<string, unknown> }>;
  components: { schemas: Record<string, unknown> };
};

type SurfaceDocument = Description & {
  $id: string;
  status_notes: StatusNote[];
  seed_overrides: unknown[];
};

const SURFACES: readonly { name: string; document: unknown }[] = [
  { name: "bot-surface", document: botSurface },
  { name: "commands", document: commandsSurface },
];

/**
 * Operations Guildhall served before the bot surface, whose answers are not held to this
 * description yet: a message's components-v2 media lack the `id` and `proxy_url` the
 * platform gives them (docs/wire-differences.md). Their message objects are checked against
 * MessageResponse where the message tests ask for it.
 */
const NOT_YET_HELD = new Set(["create_message", "get_message", "list_messages"]);

const KNOWN_KEYS = ["$id", "meta", "error_envelope", "seed_overrides", "spec_defect_overrides", "status_notes", "operations", "components"];

/**
 * `document` with every stored surface's operations and schemas added. A schema both hold
 * must be the same, and an operation already in the subset keeps the subset's; a surface's
 * adjustments (the field error codes of InnerErrors, the rate-limit body) must be the
 * subset's already, as they are applied once to the merged schemas. Where the docs name no
 * status, the platform answers 200 as well as the description's.
 */
export function withPlatformSurfaces<D extends Description>(document: D): D {
  for (const { name, document: stored } of SURFACES) merge(document, structuredClone(stored as SurfaceDocument), `openapi-${name}`);
  // The spec (9) and the platform's docs have forwards, message references of type 1; the official enum stops at 0.
  const referenceTypes = document.components.schemas.MessageReferenceType as { oneOf?: unknown[] } | undefined;
  if (!referenceTypes?.oneOf) throw new Error("openapi-bot-surface: MessageReferenceType has no oneOf to add forwards to");
  referenceTypes.oneOf.push({ title: "FORWARD", description: "Forward of a message", const: 1 });
  return document;
}

function merge(document: Description, surface: SurfaceDocument, where: string) {
  const unknown = Object.keys(surface).filter((key) => !KNOWN_KEYS.includes(key));
  if (unknown.length > 0) throw new Error(`${where}: keys this merge does not apply: ${unknown.join(", ")}`);
  if (surface.seed_overrides.length > 0) throw new Error(`${where}: seed overrides are not merged`);
  const subsetDefects = new Set(document.spec_defect_overrides.map((override) => JSON.stringify(override)));
  if (!surface.spec_defect_overrides.every((override) => subsetDefects.has(JSON.stringify(override)))) {
    throw new Error(`${where}: a spec defect override is not the subset's`);
  }
  const schemas = document.components.schemas;
  for (const [name, schema] of Object.entries(surface.components.schemas)) {
    const held = schemas[name];
    if (held && JSON.stringify(held) !== JSON.stringify(schema)) throw new Error(`${where}: schema ${name} differs from the one already merged`);
    schemas[name] = schema;
  }
  for (const [id, operation] of Object.entries(surface.operations)) if (!NOT_YET_HELD.has(id)) document.operations[id] ??= operation;
  for (const note of surface.status_notes) {
    const responses = document.operations[note.operationId]?.responses;
    if (!responses) throw new Error(`${where}: status note names unknown operation ${note.operationId}`);
    const described = responses[String(note.spec[0])];
    if (note.docs === null && described) responses["200"] ??= described;
  }
}
