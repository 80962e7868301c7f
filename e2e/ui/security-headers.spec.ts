import type { Page } from "@playwright/test";
import { watchBrowser } from "../browser-problems.ts";
import { E2E_BASE_URL } from "../e2e-env.ts";
import { expect, signIn, test } from "../fixtures.ts";

/**
 * Opens a page, waits until Next's runtime runs in it (its scripts were allowed), it shows its
 * main heading and its requests are done; returns what went wrong there, if anything.
 */
async function visit(page: Page, path: string, problems: string[]): Promise<string[]> {
  problems.length = 0;
  await page.goto(path);
  await page.waitForFunction(() => Boolean((window as unknown as { next?: { version?: string } }).next?.version));
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  return [...problems];
}

// Every page runs under the policy without a block: the page sweep (every-page.spec.ts) watches each one.
test("a page's scripts run under the content security policy, which comes with the other security headers", async ({ page, owner }) => {
  const problems = await watchBrowser(page);
  const signInPage = await page.request.get("/signin");
  const headers = signInPage.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).not.toContain("'unsafe-eval'");
  expect(headers).toMatchObject({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin" });
  // A nonce is good for one answer only.
  const again = (await page.request.get("/signin")).headers()["content-security-policy"];
  expect(again).not.toBe(headers["content-security-policy"]);

  expect(await visit(page, "/signin", problems)).toEqual([]);
  await signIn(page, owner);
  expect(await visit(page, `/guilds/${owner.guild.id}/members`, problems)).toEqual([]);
});

test("REST and CDN answers are never sniffed nor shown as pages", async ({ request }) => {
  const rest = await request.get(`${E2E_BASE_URL}/api/v10/users/@me`);
  expect(rest.status()).toBe(401);
  expect(rest.headers()).toMatchObject({ "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; frame-ancestors 'none'" });
  const cdn = await request.get(`${E2E_BASE_URL}/cdn/attachments/1/2/notes.txt`);
  expect(cdn.status()).toBe(404);
  expect(cdn.headers()).toMatchObject({ "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; sandbox" });
});
