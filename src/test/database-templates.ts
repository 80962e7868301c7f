import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { createEmptyDatabase } from "./test-db.ts";

declare module "vitest" {
  // Vitest's provided values are typed by merging into its interface, which a type alias cannot do.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface ProvidedContext {
    /** A migrated database of the project's provider that each test database is copied from (test-db.ts). */
    migratedTemplateUrl: string;
  }
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Vitest's global setup for the integration projects: migrates one database per run, which
 * every test file's database is then copied from (a file copy on SQLite, CREATE DATABASE …
 * TEMPLATE on PostgreSQL) instead of migrating its own. Dropped when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The project's env (vitest.config.ts) says which provider it runs on; the setup runs in the main process.
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = project.config.env.TEST_DATABASE_URL ?? "";
  const template = await createEmptyDatabase("template").finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  // The CLI's own migrate, in a process of its own: the schema engine (WebAssembly) holds one
  // provider per process, and both projects set up in this one.
  await promisify(execFile)(process.execPath, ["--import", "tsx", "src/cli/index.ts", "db", "migrate"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: template.url },
  });
  project.provide("migratedTemplateUrl", template.url);
  return () => template.drop();
}
