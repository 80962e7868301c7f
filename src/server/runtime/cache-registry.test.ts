import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CACHES, type CacheSpec } from "./cache-registry.ts";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !/\.(integration-)?test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The constructor arguments of each `new LRUCache(…)` in `text`. */
function lruConstructions(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf("new LRUCache"); at !== -1; at = text.indexOf("new LRUCache", at + 1)) {
    const open = text.indexOf("(", at);
    let depth = 0;
    let end = open;
    for (; end < text.length; end++) {
      if (text[end] === "(") depth++;
      if (text[end] === ")" && --depth === 0) break;
    }
    found.push(text.slice(open, end + 1));
  }
  return found;
}

const entries: [string, CacheSpec][] = Object.entries(CACHES);

describe("the cache registry", () => {
  it("bounds every LRUCache under src/server: each takes its bound from an entry naming its file", () => {
    const unlisted: string[] = [];
    for (const path of sources(join(ROOT, "src/server"))) {
      const file = relative(ROOT, path);
      for (const args of lruConstructions(readFileSync(path, "utf8"))) {
        const name = /CACHES\.(\w+)/.exec(args)?.[1];
        if (!name || (CACHES as Record<string, CacheSpec>)[name]?.file !== file) unlisted.push(`${file}: new LRUCache${args.split("\n")[0]}`);
      }
    }
    expect(unlisted).toEqual([]);
  });

  it("names files that use their entry, and gives every bounded cache a bound", () => {
    for (const [name, spec] of entries) {
      const text = readFileSync(join(ROOT, spec.file), "utf8");
      const isBounded = spec.max !== undefined || spec.maxSize !== undefined || spec.setting !== undefined;
      if (isBounded) expect(text, `${spec.file} reads CACHES.${name}`).toContain(`CACHES.${name}`);
      if (spec.keptTrue === "ttl") expect(spec.ttlMs, `${name}'s TTL`).toBeGreaterThan(0);
    }
  });
});
