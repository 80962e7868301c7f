import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const alias = { "~": fileURLToPath(new URL("./src", import.meta.url)) };
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";

const INTEGRATION = "src/**/*.integration-test.ts";
// Integration files share their worker's modules (one import of the app per worker instead of
// one per file), except those that change the process for what follows: they replace the clock,
// set the environment (read once, src/env.ts), spy on a module, start processes or run the CLI in-process. Read off the
// files themselves, so a new file is sorted without a list to keep.
const CHANGES_THE_PROCESS =
  /vi\.useFakeTimers|vi\.setSystemTime|vi\.spyOn|vi\.stubEnv|process\.env\.\w+ =(?!=)|runCliInProcess|startServerProcess|startTestTwin|startTwinServer|spawn\(|execFile\(|fork\(/;
const isolated = readdirSync("src", { recursive: true, encoding: "utf8" })
  .filter((path) => path.endsWith(".integration-test.ts"))
  .map((path) => `src/${path}`)
  .filter((file) => CHANGES_THE_PROCESS.test(readFileSync(file, "utf8")));

// Real databases: each file gets its own, copied from one migrated per run (src/test/database-templates.ts).
function integration(name: string, env: Record<string, string>): TestProjectInlineConfiguration[] {
  const common = {
    include: [INTEGRATION],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env,
    globalSetup: ["./src/test/database-templates.ts"],
  };
  return [
    { resolve: { alias }, test: { ...common, name, exclude: isolated, isolate: false } },
    { resolve: { alias }, test: { ...common, name: `${name}-isolated`, include: isolated } },
  ];
}

export default defineConfig({
  resolve: { alias },
  test: {
    environment: "node",
    reporters: ["default", "./scripts/slowest-files-reporter.ts"],
    // Integration files mostly wait (on the database, sockets, timers): more workers than cores keep both cores busy.
    maxWorkers: 3,
    projects: [
      // Ceilings only, wide enough for a loaded 2-core machine running the other projects beside.
      { resolve: { alias }, test: { name: "unit", include: ["src/**/*.test.ts"], environment: "node", testTimeout: 30_000 } },
      // On SQLite: a file per test file (an empty TEST_DATABASE_URL, whatever the shell has).
      ...integration("integration", { TEST_DATABASE_URL: "" }),
      // The same files on PostgreSQL: a database per file on the server of TEST_POSTGRES_URL.
      ...integration("integration-pg", { TEST_DATABASE_URL: POSTGRES_URL, TEST_POSTGRES_URL: POSTGRES_URL }),
      // The README's examples, each against a test twin it starts (testing/twin.ts).
      {
        resolve: { alias },
        test: { name: "examples", include: ["examples/**/*.test.ts"], environment: "node", testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
});
