import { expect, test as base, type Locator, type Page } from "@playwright/test";
import { seedOwner } from "./seed.ts";

export type Owner = Awaited<ReturnType<typeof seedOwner>>;

/** Signs in through the sign-in page and waits for the guild list. */
export async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your guilds" })).toBeVisible();
}

/**
 * Switches a checkbox or switch on right after a page loads. The page shows its
 * server-rendered controls before React has hydrated them, and a click before then is lost:
 * click again until it takes (once on, never again).
 */
export async function checkOnLoad(control: Locator): Promise<void> {
  await expect(async () => {
    if (!(await control.isChecked())) await control.click();
    await expect(control).toBeChecked({ timeout: 1000 });
  }).toPass();
}

/**
 * `owner`: a new user with a new guild for each test, so tests never share state;
 * `signedIn`: that user, already signed in.
 */
export const test = base.extend<{ owner: Owner; signedIn: Owner }>({
  // Playwright reads which fixtures a fixture needs from this pattern; this one needs none.
  // eslint-disable-next-line no-empty-pattern
  owner: async ({}, use) => {
    await use(await seedOwner("owner"));
  },
  signedIn: async ({ page, owner }, use) => {
    await signIn(page, owner);
    await use(owner);
  },
});

export { expect };
