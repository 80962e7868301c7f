import { mkdirSync } from "node:fs";
import { createApplication, createUser, newUserWithPassword } from "~/server/applications/application.service.ts";
import { createDb, type Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { createRuntime } from "~/server/runtime/create-runtime.ts";
import { E2E_PASSWORD } from "../e2e-env.ts";
import { expect, signIn, test as base } from "../fixtures.ts";
import { e2eDb, uniqueName } from "../seed.ts";
import { freshDatabase, startProductionServer } from "../servers.ts";

// The Inspector exists only in test mode: its tests run against a second server (test mode
// on, its own database); the run's server, test mode off, has no such page. Only this spec
// pays for starting it.

type TestModeServer = { baseURL: string; db: Db };

const test = base.extend<object, { testModeServer: TestModeServer }>({
  testModeServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const url = `file:./data/e2e-test-mode-${workerInfo.parallelIndex}.db`;
      await freshDatabase(url);
      const server = await startProductionServer(url, { GUILDHALL_TEST_MODE: "1" });
      // This process writes rows only; test mode (and its clock) is the server's.
      const runtime = createRuntime({ db: createDb(url) });
      try {
        await use({ baseURL: server.baseURL, db: runtime.db });
      } finally {
        await runtime.close();
        await server.stop();
      }
    },
    { scope: "worker", timeout: 120_000 },
  ],
});

/** A dashboard user who owns an application, with the application's bot token. */
async function seedApplicationOwner(db: Db) {
  const email = `inspector-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.test`;
  const user = await createUser(db, await newUserWithPassword({ username: "inspector", globalName: "Inspector Owner", email, password: E2E_PASSWORD }));
  const { application, botToken } = await runChange({ db, actor: null }, ({ tx }) =>
    createApplication(tx, { name: uniqueName("Quest Bot"), ownerId: user.id }),
  );
  return { email, password: E2E_PASSWORD, applicationId: application.id, botToken };
}

test.describe("in test mode", () => {
  test.use({ baseURL: async ({ testModeServer }, use) => use(testModeServer.baseURL) });

  test("shows the bot's calls live, filters them to 4xx and expands one to its error body", async ({ page, testModeServer }, testInfo) => {
    const owner = await seedApplicationOwner(testModeServer.db);
    const asBot = (path: string, init: RequestInit = {}) =>
      fetch(`${testModeServer.baseURL}/api/v10${path}`, { ...init, headers: { authorization: `Bot ${owner.botToken}`, ...init.headers } });
    const shots = testInfo.outputPath("inspector");
    mkdirSync(shots, { recursive: true });

    await signIn(page, owner);
    await page.goto(`/applications/${owner.applicationId}`);
    await page.getByRole("link", { name: "Inspector" }).click();
    await page.waitForURL(/\/inspector$/);
    await expect(page.getByRole("heading", { name: "Inspector" })).toBeVisible();
    await expect(page.getByText("No calls yet")).toBeVisible();
    await page.screenshot({ path: `${shots}/inspector-empty.png`, fullPage: true });

    // Made after the page opened: they arrive over its live stream.
    expect((await asBot("/users/@me")).status).toBe(200);
    expect((await asBot("/channels/1/messages")).status).toBe(404);
    expect((await asBot("/applications/@me")).status).toBe(200);
    const invalid = await asBot("/applications/@me", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: 5 }),
    });
    expect(invalid.status).toBe(400);

    const calls = page.getByRole("table", { name: "Calls" });
    await expect(calls.getByRole("row").filter({ hasText: "GET /api/v10/users/@me" }).getByText("200")).toBeVisible();
    await expect(calls.getByRole("row").filter({ hasText: "GET /api/v10/channels/1/messages" }).getByText("404")).toBeVisible();
    await expect(calls.getByRole("row").filter({ hasText: "PATCH /api/v10/applications/@me" }).getByText("400")).toBeVisible();
    await page.screenshot({ path: `${shots}/inspector-calls.png`, fullPage: true });

    // Only the refusals.
    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "4xx refused" }).click();
    await expect(calls.getByText("GET /api/v10/users/@me")).toHaveCount(0);
    await expect(calls.getByText("GET /api/v10/channels/1/messages")).toBeVisible();
    await page.screenshot({ path: `${shots}/inspector-filtered.png`, fullPage: true });

    // A row opens to its bodies: the 404's error.
    await calls.getByText("GET /api/v10/channels/1/messages").click();
    await expect(calls.getByText('"message": "Unknown Channel"')).toBeVisible();
    await calls.getByText("PATCH /api/v10/applications/@me").click();
    await expect(calls.getByText('"code": 50035')).toBeVisible();
    await page.screenshot({ path: `${shots}/inspector-expanded.png`, fullPage: true });

    // Text over paths: only the channel's call.
    await page.getByRole("textbox", { name: "Filter calls" }).fill("channels");
    await expect(calls.getByText("PATCH /api/v10/applications/@me")).toHaveCount(0);
    await page.getByRole("textbox", { name: "Filter calls" }).fill("");

    await page.setViewportSize({ width: 420, height: 900 });
    await page.screenshot({ path: `${shots}/inspector-narrow.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });

    // Clearing asks first, then empties the timeline.
    await page.getByRole("button", { name: "Clear", exact: true }).click();
    await page.getByRole("dialog", { name: "Clear the recorded calls?" }).getByRole("button", { name: "Clear calls" }).click();
    await expect(page.getByText("No calls yet")).toBeVisible();
  });

  test("someone else's application has no Inspector", async ({ page, testModeServer }) => {
    const owner = await seedApplicationOwner(testModeServer.db);
    const other = await seedApplicationOwner(testModeServer.db);
    await signIn(page, owner);
    const response = await page.goto(`/applications/${other.applicationId}/inspector`);
    expect(response?.status()).toBe(404);
  });
});

test("with test mode off, the Inspector does not exist and the application page has no link to it", async ({ page, signedIn }) => {
  const { application } = await runChange({ db: e2eDb(), actor: null }, ({ tx }) =>
    createApplication(tx, { name: uniqueName("Plain Bot"), ownerId: signedIn.user.id }),
  );
  await page.goto(`/applications/${application.id}`);
  await expect(page.getByRole("link", { name: "Lobbies" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Inspector" })).toHaveCount(0);
  const response = await page.goto(`/applications/${application.id}/inspector`);
  expect(response?.status()).toBe(404);
});
