import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContextOptions, Page, Response, TestInfo } from "@playwright/test";
import { watchBrowser } from "../browser-problems.ts";
import { E2E_DATABASE_URL } from "../e2e-env.ts";
import { expect, signIn, test as base } from "../fixtures.ts";
import { PAGES, seedWorld, statesOf, VIEWERS, viewersOf, type Viewer, type World } from "../pages.ts";
import { startProductionServer, type ProductionServer } from "../servers.ts";

/**
 * Every page, for every viewer, at desktop and phone width: the server prints no error while
 * it renders or answers the page's requests, the browser reports no page or console error, the
 * content security policy blocks nothing, and axe finds nothing serious. The same holds for what
 * a user opens on a page (its states: dialogs, menus, open lists, hidden rows), checked at
 * desktop width. The phone screenshots land in test-results/phone/ for review.
 *
 * axe checks the owner and the visitor at both widths and the member at desktop width. A page's
 * narrow layout is its responsive styles, the same whoever looks; the owner sees every control
 * enabled and the member every one disabled with its reason, so the moderator's view (some of
 * each) holds nothing they do not: it is held to the server and browser checks alone.
 *
 * Each worker sweeps against a production server of its own, on the run's database: what that
 * server prints comes from the page under test alone, while the other worker's tests go on.
 */

const PHONE = { width: 390, height: 844 };

/** What `server` printed from character `from` on: lines Next, tRPC, REST or the node server print for a failure. */
function serverErrorsSince(server: ProductionServer, from: number): string[] {
  return server
    .printed()
    .slice(from)
    .split("\n")
    .filter((line) => /⨯|\[(trpc|rest|server)\]|\b(Error|Unhandled)\b/.test(line));
}

/** Loads a page and waits until it has rendered: its main heading shows and its requests are done. */
async function open(page: Page, load: () => Promise<Response | null>): Promise<number | undefined> {
  const response = await load();
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  return response?.status();
}

/** Waits until nothing moves: a dialog or menu fading in would give axe colours halfway through. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
}

/** Who axe checks at each width (see above). */
const DESKTOP_AXE: readonly Viewer[] = ["owner", "member", "visitor"];
const PHONE_AXE: readonly Viewer[] = ["owner", "visitor"];

/** Serious and critical axe violations, one line each with where. Only violations are collected: the passes of a large page cost as much again. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${violation.help}: ${node.html.slice(0, 160)}`));
}

const signedInStates = new Map<Viewer, BrowserContextOptions["storageState"]>();

const test = base.extend<{ viewer: Viewer }, { world: World; server: ProductionServer }>({
  viewer: ["visitor", { option: true }],
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startProductionServer(E2E_DATABASE_URL);
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
  world: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use(await seedWorld());
    },
    { scope: "worker" },
  ],
  // Each viewer signs in once per worker; their pages start from that session.
  storageState: async ({ viewer, world, browser, server }, use) => {
    if (viewer === "visitor") return use(undefined);
    let state = signedInStates.get(viewer);
    if (!state) {
      const context = await browser.newContext({ baseURL: server.baseURL });
      await signIn(await context.newPage(), world.accounts[viewer]);
      state = await context.storageState();
      await context.close();
      signedInStates.set(viewer, state);
    }
    await use(state);
  },
});

async function attachPhoneShot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = path.join(testInfo.project.outputDir, "phone", `${name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`phone-${name}`, { path: file, contentType: "image/png" });
}

// Its tests share nothing but the worker's world and server, so both workers take them.
test.describe.configure({ mode: "parallel" });

for (const viewer of VIEWERS) {
  test.describe(`as ${viewer}`, () => {
    test.use({ viewer });
    for (const dashboardPage of PAGES.filter((p) => viewersOf(p).includes(viewer))) {
      test(`${dashboardPage.name} renders cleanly on desktop and phone`, async ({ page, world, server }, testInfo) => {
        const url = dashboardPage.path(world);
        const browserErrors = await watchBrowser(page);

        let from = server.printed().length;
        const status = await open(page, () => page.goto(url));
        expect.soft(status ?? 0, `${url} answered a server error`).toBeLessThan(500);
        expect.soft(serverErrorsSince(server, from), "server errors on desktop").toEqual([]);
        if (DESKTOP_AXE.includes(viewer)) expect.soft(await accessibilityProblems(page), "accessibility on desktop").toEqual([]);

        // The same page narrowed to a phone's width, as the layout answers a resize: the server
        // renders one page for every width, so loading it again would only repeat the above.
        await page.setViewportSize(PHONE);
        from = server.printed().length;
        await settle(page);
        expect.soft(serverErrorsSince(server, from), "server errors on a phone").toEqual([]);
        if (PHONE_AXE.includes(viewer)) expect.soft(await accessibilityProblems(page), "accessibility on a phone").toEqual([]);
        await attachPhoneShot(page, testInfo, `${viewer}-${dashboardPage.name}`);

        expect(browserErrors, "page and console errors").toEqual([]);
      });

      for (const state of statesOf(dashboardPage, viewer)) {
        test(`${dashboardPage.name} with ${state.name} is sound`, async ({ page, world, server }) => {
          const browserErrors = await watchBrowser(page);
          const from = server.printed().length;
          await open(page, () => page.goto(dashboardPage.path(world)));
          await state.open(page);
          await settle(page);
          expect.soft(serverErrorsSince(server, from), "server errors").toEqual([]);
          expect.soft(await accessibilityProblems(page), "accessibility").toEqual([]);
          expect(browserErrors, "page and console errors").toEqual([]);
        });
      }
    }
  });
}

test.describe("the shell", () => {
  test.use({ viewer: "owner" });

  test("a keyboard user skips the header and the navigation to the page", async ({ page, world }) => {
    await page.goto(`/guilds/${world.guildId}/members`);
    await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(async () => {
      await page.locator("body").focus();
      await page.keyboard.press("Tab");
      await expect(skip).toBeFocused({ timeout: 1000 });
    }).toPass();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main")).toBeFocused();
  });

  test("on a phone the guild's sections fold into a menu", async ({ page, world }, testInfo) => {
    await page.setViewportSize(PHONE);
    await page.goto(`/guilds/${world.guildId}`);
    const sections = page.getByRole("link", { name: "Audit log" });
    await expect(sections).not.toBeInViewport();
    const burger = page.getByRole("button", { name: "Toggle navigation" });
    await expect(async () => {
      await burger.click();
      await expect(sections).toBeInViewport({ timeout: 1000 });
    }).toPass();
    await attachPhoneShot(page, testInfo, "owner-navigation-open");
    await sections.click();
    await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
    await expect(sections).not.toBeInViewport();
  });

  test("a member's row actions open from the keyboard", async ({ page, world }) => {
    await page.goto(`/guilds/${world.guildId}/members`);
    const actions = page.getByRole("button", { name: "Actions for sweep_member" });
    await expect(actions).toBeVisible();
    await expect(async () => {
      await actions.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("menu")).toBeVisible({ timeout: 1000 });
    }).toPass();
    // As a menu button's menu does: it opens on its first item, and the arrows move from there.
    await expect(page.getByRole("menuitem", { name: "Details" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Change nickname" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toBeHidden();
  });
});
