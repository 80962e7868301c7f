import type { Page } from "@playwright/test";
import { expect, signIn, test } from "../fixtures.ts";
import { seedBan, seedGuest } from "../seed.ts";

/** Creates an invite from the Invites page with the dialog's defaults and answers its link. */
async function createInvite(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Create invite" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create invite" });
  await expect(dialog.getByLabel("Channel")).toHaveValue("#general");
  await dialog.getByRole("button", { name: "Create invite" }).click();
  const created = page.getByRole("dialog", { name: "Invite created" });
  const link = await created.getByLabel("Invite link").inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9]{10}$/);
  await created.getByRole("button", { name: "Done" }).click();
  await expect(created).toBeHidden();
  return link;
}

test("an invite made in the dashboard lets another user sign in, join and grow the guild", async ({ page, owner, browser }) => {
  const guest = await seedGuest("guest");
  await signIn(page, owner);
  await page.goto("/");
  await expect(page.getByRole("link", { name: new RegExp(owner.guild.name) })).toContainText("1 member");
  await page.goto(`/guilds/${owner.guild.id}/invites`);
  await expect(page.getByText("No invites yet")).toBeVisible();
  const link = await createInvite(page);
  const code = link.split("/").at(-1)!;
  await expect(page.getByRole("row", { name: new RegExp(code) })).toContainText("#general");

  // A fresh browser: nobody signed in.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole("heading", { name: owner.guild.name })).toBeVisible();
  await expect(visitor.getByText("1 member", { exact: true })).toBeVisible();
  await expect(visitor.getByText(/invited you to join/)).toContainText("E2E Owner");
  await visitor.getByRole("link", { name: "Accept invite" }).click();
  await visitor.waitForURL(/\/signin\?callbackUrl=/);
  await visitor.getByLabel("Email").fill(guest.email);
  await visitor.getByLabel("Password", { exact: true }).fill(guest.password);
  await visitor.getByRole("button", { name: "Sign in" }).click();
  await visitor.waitForURL(new RegExp(`/invite/${code}$`));
  await visitor.getByRole("button", { name: "Accept invite" }).click();
  await visitor.waitForURL(new RegExp(`/guilds/${owner.guild.id}$`));
  await expect(visitor.getByText("2 members").first()).toBeVisible();

  // Opening the link again says so and leads into the guild.
  await visitor.goto(link);
  await expect(visitor.getByText("You're already a member")).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Open guild" })).toHaveAttribute("href", `/guilds/${owner.guild.id}`);
  await context.close();

  // The owner sees the use and the bigger guild.
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(code) })).toContainText("1 / ∞");
  await page.goto("/");
  await expect(page.getByRole("link", { name: new RegExp(owner.guild.name) })).toContainText("2 members");
});

test("revokes an invite after confirming, and its link then shows the invalid page", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/invites`);
  const link = await createInvite(page);
  const code = link.split("/").at(-1)!;
  await page.getByRole("button", { name: `Revoke ${code}` }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke invite" });
  await confirm.getByLabel("Reason").fill("Posted in public");
  await confirm.getByRole("button", { name: `Revoke ${code}` }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("Invite revoked")).toBeVisible();
  await expect(page.getByText("No invites yet")).toBeVisible();

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Invite invalid" })).toBeVisible();
});

test("pausing invites shows the paused page to people with a link", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/invites`);
  const link = await createInvite(page);
  await page.getByLabel("Pause invites").click();
  await expect(page.getByText("Invites paused")).toBeVisible();
  await expect(page.getByLabel("Pause invites")).toBeChecked();

  const context = await page.context().browser()!.newContext();
  const visitor = await context.newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole("heading", { name: "Invites are paused" })).toBeVisible();
  await context.close();
});

test("a banned user who accepts is told they can't join", async ({ page, owner, browser }) => {
  const guest = await seedGuest("banned");
  await seedBan(owner, guest.user.id);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/invites`);
  const link = await createInvite(page);

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await signIn(visitor, guest);
  await visitor.goto(link);
  await visitor.getByRole("button", { name: "Accept invite" }).click();
  await expect(visitor.getByRole("heading", { name: "You can't join this guild" })).toBeVisible();
  await context.close();
});

test("an unknown code shows the invalid page", async ({ page }) => {
  await page.goto("/invite/notacode00");
  await expect(page.getByRole("heading", { name: "Invite invalid" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Guildhall" })).toBeVisible();
});

test("an invite for named users lets only them in", async ({ page, owner, browser }) => {
  const invited = await seedGuest("invited");
  const other = await seedGuest("other");
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/invites`);
  await page.getByRole("button", { name: "Create invite" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create invite" });
  await dialog.getByLabel("Only these users").fill("not-an-id");
  await expect(dialog.getByText('"not-an-id" is not a user id.')).toBeVisible();
  await dialog.getByLabel("Only these users").fill(invited.user.id);
  await dialog.getByRole("button", { name: "Create invite" }).click();
  const link = await page.getByRole("dialog", { name: "Invite created" }).getByLabel("Invite link").inputValue();

  for (const [guest, allowed] of [
    [other, false],
    [invited, true],
  ] as const) {
    const context = await browser.newContext();
    const visitor = await context.newPage();
    await signIn(visitor, guest);
    await visitor.goto(link);
    await visitor.getByRole("button", { name: "Accept invite" }).click();
    if (allowed) await visitor.waitForURL(new RegExp(`/guilds/${owner.guild.id}$`));
    else await expect(visitor.getByText("This invite is for other users.")).toBeVisible();
    await context.close();
  }
});
