// Which of the platform's routes Guildhall serves: the paths discord-api-types' `Routes`
// helpers build (what discord.js and @discordjs/rest call), matched against the route table.
// `npm run coverage:routes` writes docs/route-coverage.md; a unit test fails when it is stale.
import { Routes } from "discord-api-types/v10";
import type { Route } from "./route.ts";

const MAX_PARAMS = 5;
const PLACEHOLDER = /^__\d+__$/;

export type CoverageRow = { helper: string; path: string; methods: string[] };

/** Helpers whose last argument is one of a few words, not an id: each word is a path of its own. */
const WORDS: Readonly<Record<string, readonly string[][]>> = {
  channelThreads: [
    ["__0__", "public"],
    ["__0__", "private"],
  ],
};

/** Each helper's paths: called with 0 to 5 placeholders, as a helper with a default ("@me") builds more than one. */
function platformPaths(): { helper: string; segments: (string | null)[] }[] {
  const found = new Map<string, { helper: string; segments: (string | null)[] }>();
  for (const [helper, build] of Object.entries(Routes) as [string, (...args: string[]) => string][]) {
    const calls = WORDS[helper] ?? Array.from({ length: MAX_PARAMS + 1 }, (_, count) => Array.from({ length: count }, (_, i) => `__${i}__`));
    for (const args of calls) {
      const path = build(...args).split("?")[0]!;
      if (path.includes("undefined")) continue;
      const segments = path
        .split("/")
        .filter(Boolean)
        .map((segment) => (PLACEHOLDER.test(segment) ? null : segment));
      const key = segments.map((segment) => segment ?? "{}").join("/");
      if (!found.has(key)) found.set(key, { helper, segments });
    }
  }
  return [...found.values()];
}

/** The platform's paths in order, each with the methods the route table serves on it (none: not served). */
export function routeCoverage(routes: readonly Pick<Route, "method" | "path">[]): CoverageRow[] {
  const ours = routes.map((route) => ({
    method: route.method,
    segments: route.path
      .split("/")
      .filter(Boolean)
      .map((s) => (s.startsWith(":") ? null : s)),
  }));
  return platformPaths()
    .map(({ helper, segments }) => {
      const methods = ours
        .filter((route) => route.segments.length === segments.length && route.segments.every((segment, i) => segment === segments[i]))
        .map((route) => route.method);
      return { helper, path: `/${segments.map((segment) => segment ?? "{id}").join("/")}`, methods: [...new Set(methods)].sort() };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** The coverage list as docs/route-coverage.md holds it. */
export function routeCoverageMarkdown(rows: readonly CoverageRow[]): string {
  const served = rows.filter((row) => row.methods.length > 0).length;
  return [
    "# Route coverage",
    "",
    "The paths discord-api-types' `Routes` helpers build (those discord.js and `@discordjs/rest` call), and the",
    "methods Guildhall serves on each. Generated from the route table by `npm run coverage:routes`; a test",
    "fails when this file is stale. A path without methods answers 404.",
    "",
    `**${served} of ${rows.length} paths served.**`,
    "",
    "| Path | Helper | Served |",
    "| --- | --- | --- |",
    ...rows.map((row) => `| \`${row.path}\` | \`${row.helper}\` | ${row.methods.length > 0 ? row.methods.join(", ") : "not yet"} |`),
    "",
  ].join("\n");
}
