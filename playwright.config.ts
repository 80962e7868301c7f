import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { E2E_BASE_URL, E2E_DATABASE_URL, E2E_PORT, E2E_RATE_LIMIT_SCALE, E2E_SERVER_LOG } from "./e2e/e2e-env.ts";

// The system Chromium where there is one (offline machines can't download Playwright's);
// elsewhere Playwright's own browser.
const executablePath = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export default defineConfig({
  testDir: "./e2e",
  forbidOnly: Boolean(process.env.CI),
  // Each test seeds its own owner and guild, so tests run side by side; the server and the
  // workers share one SQLite file (WAL: readers never wait, writers wait their turn).
  workers: 2,
  // Waits follow what the page does (navigations with waitForURL, assertions retried on the
  // DOM); these are only ceilings, wide enough for a loaded 2-core CI machine.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  // The ten slowest spec files, so a CI log shows where the time goes.
  reportSlowTests: { max: 10, threshold: 0 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: E2E_BASE_URL,
    // A failed test's trace keeps its actions, DOM snapshots, network and console, without the
    // screencast: encoding its frames cost the browser a quarter of its CPU in every test.
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "ui",
      testDir: "./e2e/ui",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1366, height: 900 },
        launchOptions: {
          executablePath,
          args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        },
      },
    },
  ],
  // The production server (`npm start`: server.ts with Next behind it) of the build: `npm run build` first.
  // The test-mode server the Inspector needs is started by its spec (e2e/ui/inspector.spec.ts).
  webServer: {
    // Its output goes to the run's output and to a file, for reading after a failed run.
    command: `mkdir -p data && npx tsx e2e/fresh-database.ts && npm start 2>&1 | tee ${E2E_SERVER_LOG}`,
    stdout: "pipe",
    stderr: "pipe",
    url: `${E2E_BASE_URL}/signin`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(E2E_PORT),
      HOST: "127.0.0.1",
      DATABASE_URL: E2E_DATABASE_URL,
      PUBLIC_BASE_URL: E2E_BASE_URL,
      // Event webhooks go to public addresses only; the tests' receiver listens on loopback.
      EVENT_WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
      RATE_LIMIT_SCALE: E2E_RATE_LIMIT_SCALE,
    },
  },
});
