// The official description's operations for the everyday bot surface (reactions, pins, typing,
// users and DMs, bulk delete, overwrites, archived threads, emojis, stickers), stored in the
// layout of the conformance subset and merged into it: one description for the checker and
// the API reference.
import botSurface from "./platform-bot-surface.json" with { type: "json" };

/** Where the platform's docs and the description disagree on a status: `docs` null when the docs name none. */
type StatusNote = { operationId: string; docs: number | null; spec: number[]; note: string };

/** What the merge reads and writes of a description (platform-description.ts has the whole shape). */
type Description = { operations: Record<string, { responses: Record<string, unknown> }>; components: { schemas: Record<string, unknown> } };

type BotSurfaceDocument = Description & {
  $id: string;
  status_notes: StatusNote[];
  spec_defect_overrides: unknown[];
  seed_overrides: unknown[];
};

/**
 * Operations Guildhall served before the bot surface, whose answers are not held to this
 * description yet: a message's components-v2 media lack the `id` and `proxy_url` the
 * platform gives them (docs/wire-differences.md). Their message objects are checked against
 * MessageResponse where the message tests ask for it.
 */
const NOT_YET_HELD = new Set(["create_message", "get_message", "list_messages"]);

const KNOWN_KEYS = ["$id", "meta", "error_envelope", "seed_overrides", "spec_defect_overrides", "status_notes", "operations", "components"];

/**
 * `document` with the bot surface's operations and schemas added. A schema both hold must be
 * the same, and an operation already in the subset keeps the subset's; the bot surface's
 * adjustments (the field error codes of InnerErrors) are the subset's already. Where the docs
 * name no status, the platform answers 200 as well as the description's.
 */
export function withBotSurface<D extends Description>(document: D): D {
  const surface = structuredClone(botSurface as unknown as BotSurfaceDocument);
  const unknown = Object.keys(surface).filter((key) => !KNOWN_KEYS.includes(key));
  if (unknown.length > 0) throw new Error(`openapi-bot-surface: keys this merge does not apply: ${unknown.join(", ")}`);
  if (surface.seed_overrides.length > 0) throw new Error("openapi-bot-surface: seed overrides are not merged");
  const schemas = document.components.schemas;
  for (const [name, schema] of Object.entries(surface.components.schemas)) {
    const held = schemas[name];
    if (held && JSON.stringify(held) !== JSON.stringify(schema)) throw new Error(`openapi-bot-surface: schema ${name} differs from the subset's`);
    schemas[name] = schema;
  }
  for (const [id, operation] of Object.entries(surface.operations)) if (!NOT_YET_HELD.has(id)) document.operations[id] ??= operation;
  // The spec (9) and the platform's docs have forwards, message references of type 1; the official enum stops at 0.
  const referenceTypes = schemas.MessageReferenceType as { oneOf?: unknown[] } | undefined;
  if (!referenceTypes?.oneOf) throw new Error("openapi-bot-surface: MessageReferenceType has no oneOf to add forwards to");
  referenceTypes.oneOf.push({ title: "FORWARD", description: "Forward of a message", const: 1 });
  for (const note of surface.status_notes) {
    const responses = document.operations[note.operationId]?.responses;
    if (!responses) throw new Error(`openapi-bot-surface: status note names unknown operation ${note.operationId}`);
    const described = responses[String(note.spec[0])];
    if (note.docs === null && described) responses["200"] ??= described;
  }
  return document;
}
