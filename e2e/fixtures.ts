import { expect, test as base, type Locator, type Page } from "@playwright/test";
import { seedOwner } from "./seed.ts";

export type Owner = Awaited<ReturnType<typeof seedOwner>>;

/**
 * Signs in as the sign-in form does, through next-auth's credentials endpoint, from the page's
 * own request context: the session cookie lands in the page's browser context. The page itself
 * stays where it was (the sign-in form has its own tests, in auth.spec.ts).
 */
export async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const answer = await page.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: account.email, password: account.password, json: "true" },
  });
  // next-auth answers where the form would go next; a refusal names its error there.
  const { url } = (await answer.json()) as { url: string };
  const error = new URL(url).searchParams.get("error");
  if (!answer.ok() || error) throw new Error(`Signing in ${account.email} failed: ${answer.status()} ${error ?? ""}`);
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

/** Clicks `control` until `shown` shows: a click that lands before the page is hydrated does nothing. */
export async function clickUntilShown(control: Locator, shown: Locator): Promise<void> {
  await expect(async () => {
    if (!(await shown.isVisible())) await control.click();
    await expect(shown).toBeVisible({ timeout: 2000 });
  }).toPass();
}

/**
 * Opens a menu (its button named `menuButton`) until `item` shows and returns that item. A
 * click that lands before the page is hydrated opens nothing, so the button is clicked again.
 */
export async function openMenu(page: Page, menuButton: string | RegExp, item: string | RegExp): Promise<Locator> {
  const menuItem = page.getByRole("menuitem", { name: item });
  await expect(async () => {
    if (!(await menuItem.isVisible())) await page.getByRole("button", { name: menuButton }).click();
    await expect(menuItem).toBeVisible({ timeout: 2000 });
  }).toPass();
  return menuItem;
}

/** Opens a menu and picks `action` from it. */
export async function pickFromMenu(page: Page, menuButton: string | RegExp, action: string | RegExp): Promise<void> {
  await (await openMenu(page, menuButton, action)).click();
}

/**
 * `owner`: a new user with a new guild for each test, so tests never share state;
 * `signedIn`: that user, already signed in (the page has not loaded anything yet).
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
