import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "~": fileURLToPath(new URL("./src", import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    environment: "node",
    reporters: ["default", "./scripts/slowest-files-reporter.ts"],
    projects: [
      { resolve: { alias }, test: { name: "unit", include: ["src/**/*.test.ts"], environment: "node" } },
      // Real databases: each file makes its own, so files may run in parallel.
      {
        resolve: { alias },
        test: { name: "integration", include: ["src/**/*.integration-test.ts"], environment: "node", testTimeout: 30_000, hookTimeout: 60_000 },
      },
      // The README's examples, each against a test twin it starts (testing/twin.ts).
      {
        resolve: { alias },
        test: { name: "examples", include: ["examples/**/*.test.ts"], environment: "node", testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
});
