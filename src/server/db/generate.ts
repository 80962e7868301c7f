import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { DbProvider } from "./provider.ts";

export const PROJECT_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const SCHEMA_PATH = join(PROJECT_ROOT, "prisma", "schema.prisma");
// One client per provider, side by side, so DATABASE_URL alone picks the database at run time
// (db/client.ts). Every module takes its model types from the SQLite one: the schema is one.
const CLIENT_DIRS: Record<DbProvider, string> = {
  sqlite: join(PROJECT_ROOT, "src", "generated", "prisma"),
  postgresql: join(PROJECT_ROOT, "src", "generated", "prisma-postgresql"),
};
// Git-ignored, and outside the client folders.
const REWRITTEN_SCHEMA_DIR = join(PROJECT_ROOT, "src", "generated", "schema");

const require = createRequire(import.meta.url);

/** The schema engine compiled to WebAssembly; its package does not export the .wasm file itself. */
export const SCHEMA_ENGINE_WASM = join(dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");

const DATASOURCE_PROVIDER = /(datasource\s+\w+\s*\{[^}]*?\bprovider\s*=\s*)"([^"]*)"/;
const GENERATOR_OUTPUT = /(generator\s+\w+\s*\{[^}]*?\boutput\s*=\s*)"[^"]*"/;

/** The schema text with the datasource provider replaced; optionally the generator output too. */
export function rewriteSchema(text: string, provider: DbProvider, output?: string): string {
  if (!DATASOURCE_PROVIDER.test(text)) throw new Error("schema.prisma has no datasource provider line");
  let rewritten = text.replace(DATASOURCE_PROVIDER, `$1"${provider}"`);
  if (output !== undefined) {
    if (!GENERATOR_OUTPUT.test(rewritten)) throw new Error("schema.prisma has no generator output line");
    rewritten = rewritten.replace(GENERATOR_OUTPUT, `$1${JSON.stringify(output)}`);
  }
  return rewritten;
}

/** prisma/schema.prisma as it reads for the given provider. */
export function schemaFor(provider: DbProvider): string {
  return rewriteSchema(readFileSync(SCHEMA_PATH, "utf8"), provider);
}

/** The environment that keeps the Prisma CLI from reaching the network. */
function offlinePrismaEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...env,
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    // `generate` never runs the schema engine but insists on having one; without a path it downloads it.
    PRISMA_SCHEMA_ENGINE_BINARY: env.PRISMA_SCHEMA_ENGINE_BINARY ?? SCHEMA_ENGINE_WASM,
  };
}

function generateClient(provider: DbProvider): Promise<void> {
  mkdirSync(REWRITTEN_SCHEMA_DIR, { recursive: true });
  const schemaPath = join(REWRITTEN_SCHEMA_DIR, `${provider}.prisma`);
  writeFileSync(schemaPath, rewriteSchema(readFileSync(SCHEMA_PATH, "utf8"), provider, relative(REWRITTEN_SCHEMA_DIR, CLIENT_DIRS[provider])));
  const cli = join(dirname(require.resolve("prisma/package.json")), "build", "index.js");
  const child = spawn(process.execPath, [cli, "generate", "--schema", schemaPath], { cwd: PROJECT_ROOT, env: offlinePrismaEnv(), stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`prisma generate for ${provider} exited with ${code ?? signal}`))));
  });
}

/** Generates the Prisma client of each provider (both at once: each is mostly waiting on its own process). */
export async function generateClients(): Promise<void> {
  await Promise.all((["sqlite", "postgresql"] as const).map(generateClient));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    await generateClients();
  } catch (error) {
    console.error(`db:generate failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
