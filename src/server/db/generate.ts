import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { databaseUrl, providerFromUrl, type DbProvider } from "./provider.ts";

export const PROJECT_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const SCHEMA_PATH = join(PROJECT_ROOT, "prisma", "schema.prisma");
const CLIENT_DIR = join(PROJECT_ROOT, "src", "generated", "prisma");
// Git-ignored, and outside the client folder.
const REWRITTEN_SCHEMA_DIR = join(PROJECT_ROOT, "src", "generated", "schema");
// Beside the client folder: `prisma generate` deletes .ts files it did not write from its output.
const PROVIDER_MARKER = join(PROJECT_ROOT, "src", "generated", "provider.ts");

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

function schemaProvider(text: string): string | undefined {
  return DATASOURCE_PROVIDER.exec(text)?.[2];
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

/** Generates the Prisma client for the provider of DATABASE_URL (or the one given). */
export function generateClient(provider: DbProvider = providerFromUrl(databaseUrl())): void {
  const text = readFileSync(SCHEMA_PATH, "utf8");
  let schemaPath = SCHEMA_PATH;
  if (schemaProvider(text) !== provider) {
    schemaPath = join(REWRITTEN_SCHEMA_DIR, `${provider}.prisma`);
    mkdirSync(REWRITTEN_SCHEMA_DIR, { recursive: true });
    writeFileSync(schemaPath, rewriteSchema(text, provider, relative(REWRITTEN_SCHEMA_DIR, CLIENT_DIR)));
  }
  const cli = join(dirname(require.resolve("prisma/package.json")), "build", "index.js");
  const result = spawnSync(process.execPath, [cli, "generate", "--schema", schemaPath], {
    cwd: PROJECT_ROOT,
    env: offlinePrismaEnv(),
    stdio: "inherit",
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`prisma generate exited with ${result.status ?? result.signal}`);
  writeFileSync(
    PROVIDER_MARKER,
    `// Written by src/server/db/generate.ts: the provider this client was generated for.\n` +
      `import type { DbProvider } from "~/server/db/provider.ts";\n\n` +
      `export const GENERATED_PROVIDER: DbProvider = ${JSON.stringify(provider)};\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await import("dotenv/config");
  try {
    generateClient();
  } catch (error) {
    console.error(`db:generate failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
