// Cached wire objects are shared by every request that reads them, so they are frozen and
// their JSON text is kept with them once first written: later responses made of them
// are written without serialising the same object again.

// Not part of the runtime: a pure memo keyed by frozen objects cannot go stale and holds an
// entry only as long as its object lives. Shared by every copy of this module in the process
// (the REST server's and Next's bundles), since one copy may freeze what another writes out.
const globalForJson = globalThis as unknown as { guildhallWireJson?: WeakMap<object, string | null> };
const texts = (globalForJson.guildhallWireJson ??= new WeakMap());

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

/** Freezes a wire object (deeply) so that `toJson` may keep its JSON text. */
export function preserialize<T extends object>(value: T): T {
  deepFreeze(value);
  texts.set(value, null);
  return value;
}

/** The JSON text of a response body, reusing what `preserialize` kept for it or for its items. */
export function toJson(value: unknown): string {
  if (value !== null && typeof value === "object") {
    const text = texts.get(value);
    if (text) return text;
    if (text === null) {
      const written = JSON.stringify(value);
      texts.set(value, written);
      return written;
    }
    if (Array.isArray(value) && value.length > 0 && texts.has(value[0] as object)) return `[${value.map(toJson).join(",")}]`;
  }
  return JSON.stringify(value);
}
