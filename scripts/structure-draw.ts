import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

// Writes docs/structure.md (npm run structure:draw): the floors of the code as boxes of
// folders, and how many imports go from each floor to each floor below, read by
// dependency-cruiser with the check's configuration (.dependency-cruiser.cjs). Folder-level
// arrows would not show floors: the domains import one another's modules both ways (never
// in a circle, which `npm run structure` checks), so a floor holds files, and a box names
// the folders its files are in.

type Floor = { name: string; says: string; paths: readonly RegExp[] };

/**
 * Top to bottom. A file's floor is the first whose paths it matches (src/server's other files:
 * Services), or lower when a file on a lower floor imports it: what the core imports of a
 * domain (a DTO type, a pure rule) is part of the core.
 */
const FLOORS: readonly Floor[] = [
  {
    name: "Entries",
    says: "build what they serve and stop it: server.ts, Next (src/instrumentation.ts), the CLI, the test app, the twin",
    paths: [
      /^server\.ts$/,
      /^src\/(instrumentation|proxy)\.ts$/,
      /^src\/(app|cli|components|trpc|test)\//,
      /^(testing|bench|e2e)\//,
      /^src\/server\/twin\/twin-(main|server)\.ts$/,
    ],
  },
  {
    name: "Serving",
    says: "one Serving per process (serving/serving.ts): the runtime, background work, the gateway, the twin; and what reads it for Next",
    paths: [
      /^src\/server\/serving\//,
      /^src\/server\/auth\/(session|next-auth)\.ts$/,
      /^src\/server\/images\/cdn\.ts$/,
      /^src\/server\/trpc\/request-context\.ts$/,
    ],
  },
  {
    name: "Composed",
    says: "what runs on the runtime: background work, the gateway's connections, the twin's controls (their pure rules that services share sit lower)",
    paths: [/^src\/server\/background\.ts$/, /^src\/server\/(gateway|twin)\//],
  },
  {
    name: "Core runtime",
    says: "database, write path, Redis, limiter, caches, event fan-out, webhook destinations; services reach it through runtimeOf(db)",
    paths: [/^src\/server\/(runtime|db|events|state|ratelimit)\//],
  },
];
const SERVICES: Floor = {
  name: "Services",
  says: "the domains with their REST rows and tRPC routers, the REST dispatcher, tRPC, the live dashboard",
  paths: [/^src\/server\//, /^src\/env\.ts$/],
};
/** Drawn top to bottom: Services sit above the core, though their paths are matched last. */
const DRAWN: readonly Floor[] = [FLOORS[0]!, FLOORS[1]!, FLOORS[2]!, SERVICES, FLOORS[3]!];
const OURS = /^(src\/|testing\/|bench\/|e2e\/|server\.ts$)/;
const TEST_FILE = /\.(integration-)?test\.tsx?$/;
/** A folder with at most this many files on a floor other than its own names them. */
const NAMED_FILES = 3;
const LINE_CHARS = 80;

type Cruise = { modules: { source: string; dependencies: { resolved: string }[] }[] };

function cruise(): Map<string, string[]> {
  const json = execFileSync("depcruise", ["--config", ".dependency-cruiser.cjs", "--output-type", "json", "src", "server.ts", "testing", "bench", "e2e"], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  // Tests import what they test and nothing imports them: they would only thicken the arrows.
  const ours = (path: string) => OURS.test(path) && !TEST_FILE.test(path);
  const imports = new Map<string, string[]>();
  for (const module of (JSON.parse(json) as Cruise).modules) {
    if (ours(module.source)) imports.set(module.source, module.dependencies.map((d) => d.resolved).filter(ours));
  }
  return imports;
}

function homeFloor(path: string): Floor {
  const floor = FLOORS.find((f) => f.paths.some((p) => p.test(path))) ?? (SERVICES.paths.some((p) => p.test(path)) ? SERVICES : null);
  if (!floor) throw new Error(`${path} is on no floor: add it to FLOORS in scripts/structure-draw.ts`);
  return floor;
}

/** Each file's floor (an index into DRAWN): its own, or the lowest of the files importing it. */
function floorsOf(imports: Map<string, string[]>): Map<string, number> {
  const floors = new Map([...imports.keys()].map((path) => [path, DRAWN.indexOf(homeFloor(path))]));
  // The import graph has no circle, so sinking along it ends.
  for (let moved = true; moved;) {
    moved = false;
    for (const [from, targets] of imports)
      for (const to of targets)
        if (floors.get(to)! < floors.get(from)!) {
          floors.set(to, floors.get(from)!);
          moved = true;
        }
  }
  return floors;
}

/** "src/server/gateway/gateway.ts" → "gateway/"; files outside src/server keep their top folder. */
function folderOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] === "src" && parts[1] === "server") return parts.length > 3 ? `${parts[2]}/` : parts[2]!;
  if (parts[0] === "src") return parts.length > 2 ? `src/${parts[1]}/` : path;
  return parts.length > 1 ? `${parts[0]}/` : path;
}

function boxText(floor: number, floors: Map<string, number>): string {
  const byFolder = new Map<string, string[][]>();
  for (const [path, at] of floors) {
    const byFloor = byFolder.get(folderOf(path)) ?? DRAWN.map(() => []);
    byFloor[at]!.push(path);
    byFolder.set(folderOf(path), byFloor);
  }
  const names: string[] = [];
  for (const [folder, byFloor] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    const here = byFloor[floor]!;
    if (here.length === 0) continue;
    // A folder is named plainly where most of its files are, and with the others where they are.
    const most = Math.max(...byFloor.map((paths) => paths.length));
    if (byFloor.findIndex((paths) => paths.length === most) === floor) names.push(folder);
    else if (here.length <= NAMED_FILES)
      names.push(
        `${folder} (${here
          .map((path) =>
            path
              .split("/")
              .pop()!
              .replace(/\.tsx?$/, ""),
          )
          .join(", ")})`,
      );
    else names.push(`${folder} (${here.length} files)`);
  }
  return wrap(names, " · ");
}

/** Joins `words` into lines of about LINE_CHARS, so a box stays narrow enough to read. */
function wrap(words: readonly string[], separator: string): string {
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + separator.length + word.length <= LINE_CHARS) lines[lines.length - 1] = last + separator + word;
    else lines.push(word);
  }
  return lines.join("<br/>");
}

function draw(): string {
  const imports = cruise();
  const floors = floorsOf(imports);
  const counts = new Map<string, number>();
  for (const [from, targets] of imports)
    for (const to of targets) {
      const [a, b] = [floors.get(from)!, floors.get(to)!];
      if (a !== b) counts.set(`${a}>${b}`, (counts.get(`${a}>${b}`) ?? 0) + 1);
    }
  const lines = ["flowchart TB"];
  DRAWN.forEach((floor, i) => lines.push(`  f${i}["<b>${floor.name}</b><br/><i>${wrap(floor.says.split(" "), " ")}</i><br/><br/>${boxText(i, floors)}"]`));
  for (const [key, count] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    const [a, b] = key.split(">");
    lines.push(`  f${a} -- "${count}" --> f${b}`);
  }
  return [
    "# Structure",
    "",
    "<!-- Generated by `npm run structure:draw` (scripts/structure-draw.ts) from the imports dependency-cruiser reads; do not edit. -->",
    "",
    "The code's floors, top to bottom, with the folders whose files sit on each (tests left out). A",
    "file sits on its own floor (scripts/structure-draw.ts), or lower when a lower floor imports it, so",
    "an arrow, which counts the imports from one floor to another (type imports included), only goes",
    "down. A folder is named plainly where most of its files are, and in brackets with the files it has",
    "elsewhere. No module reaches itself through its imports, and the core runtime reaches none of the",
    "floors above Services (`npm run structure`, part of `npm run check`).",
    "",
    "```mermaid",
    ...lines,
    "```",
    "",
  ].join("\n");
}

writeFileSync("docs/structure.md", draw());
