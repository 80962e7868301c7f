import type { Page } from "@playwright/test";
import { E2E_BASE_URL, E2E_PASSWORD } from "../e2e-env.ts";
import { expect, pickFromMenu, test } from "../fixtures.ts";

function seededOwner() {
  const email = process.env.E2E_OWNER_EMAIL;
  const guildName = process.env.E2E_OWNER_GUILD_NAME;
  if (!email || !guildName) throw new Error("The global setup did not seed an owner");
  return { email, password: E2E_PASSWORD, guildName };
}

/** Signs in with the sign-in page's form and waits for the guild list. */
async function signInWithForm(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your guilds" })).toBeVisible();
}

test("signed-out visitors are sent to the sign-in page", async ({ page }) => {
  await page.goto("/");
  await page.waitForURL(/\/signin$/);
  await expect(page.getByRole("heading", { name: "Sign in to Guildhall" })).toBeVisible();
});

test("signs in with e-mail and password and lists the user's guilds", async ({ page }) => {
  const owner = seededOwner();
  await signInWithForm(page, owner);
  const card = page.getByRole("link", { name: owner.guildName });
  await expect(card).toBeVisible();
  await expect(card).toContainText("1 member");
  await expect(card).toContainText("Owner");
});

test("a wrong password is refused with a message", async ({ page }) => {
  const owner = seededOwner();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password", { exact: true }).fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert", { name: "Could not sign in" })).toContainText("don't match an account");
  await page.waitForURL(/\/signin$/);
});

test("signing out from the user menu ends the session", async ({ page, signedIn }) => {
  await page.goto("/");
  await pickFromMenu(page, /Account menu/, "Sign out");
  await expect(page.getByRole("heading", { name: "Sign in to Guildhall" })).toBeVisible();
  await page.goto(`/guilds/${signedIn.guild.id}`);
  await page.waitForURL(new RegExp(`/signin\\?callbackUrl=%2Fguilds%2F${signedIn.guild.id}$`));
});

test("deep links come back after signing in", async ({ page, owner }) => {
  await page.goto(`/guilds/${owner.guild.id}/roles`);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Roles", exact: true })).toBeVisible();
  await page.waitForURL(`/guilds/${owner.guild.id}/roles`);
});

test("a callback that leads off the dashboard ends on the guild list instead", async ({ page, owner }) => {
  // A tab inside "//" passes prefix checks; the browser drops it and reads another host.
  const hostile = `/signin?callbackUrl=${encodeURIComponent("/\t/evil.example")}`;
  await page.goto(hostile);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your guilds" })).toBeVisible({ timeout: 15_000 });
  expect(page.url()).toBe(`${E2E_BASE_URL}/`);

  // Signed in already: the sign-in page sends them on at once, to the same place.
  await page.goto(hostile);
  await expect(page.getByRole("heading", { name: "Your guilds" })).toBeVisible();
  expect(page.url()).toBe(`${E2E_BASE_URL}/`);
});
