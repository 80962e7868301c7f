import { createApplication } from "~/server/applications/application.service.ts";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { expect, pickFromMenu, test } from "../fixtures.ts";
import { e2eDb, seedGuest, uniqueName } from "../seed.ts";

/** Applications of `ownerId`, made as the CLI makes them. */
async function seedApplications(ownerId: string, names: readonly string[]) {
  const made = [];
  for (const name of names) made.push((await e2eDb().$transaction((tx) => createApplication(tx, { name, ownerId }))).application);
  return made;
}

test("creates an application from the account menu, shows its token once, resets it, renames it and switches an intent", async ({
  page,
  // Signed in as a new user with no applications yet.
  signedIn: _signedIn,
  context,
  request,
}, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const asBot = (token: string) => request.get("/api/v10/applications/@me", { headers: { Authorization: `Bot ${token}` } });

  await page.goto("/");
  await pickFromMenu(page, /^Account menu for/, "Applications");
  await page.waitForURL(/\/applications$/);
  await expect(page.getByRole("heading", { name: "Applications", level: 1 })).toBeVisible();
  await expect(page.getByText("No applications yet")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("applications-empty.png"), fullPage: true });

  await page.getByRole("button", { name: "New application" }).click();
  const create = page.getByRole("dialog", { name: "Create an application" });
  await create.getByRole("button", { name: "Create application" }).click();
  await expect(create.getByText("Name is required.")).toBeVisible();
  await create.getByLabel("Name").fill("Quest Runner");
  await create.getByLabel("Description").fill("Finds a party for every quest.");
  await create.getByRole("button", { name: "Create application" }).click();

  // The token, once: copy it, and it answers the API as the new application's bot.
  const reveal = page.getByRole("dialog", { name: "Quest Runner is ready: its bot token" });
  await expect(reveal.getByText("Store it now: it won't be shown again")).toBeVisible();
  const token = await reveal.getByLabel("Bot token").inputValue();
  expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  await reveal.getByRole("button", { name: "Copy" }).click();
  await expect(reveal.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await page.screenshot({ path: testInfo.outputPath("applications-token.png") });
  const me = await asBot(token);
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ name: "Quest Runner", description: "Finds a party for every quest." });

  await reveal.getByRole("button", { name: "I have stored it" }).click();
  await expect(reveal).toBeHidden();
  expect(await page.content()).not.toContain(token);
  const card = page.getByRole("link", { name: "Quest Runner" });
  await expect(card).toBeVisible();
  await expect(page.getByRole("main")).toContainText("Development rate limits");

  await card.click();
  await expect(page.getByRole("heading", { name: "Quest Runner", level: 1 })).toBeVisible();
  const applicationId = page.url().split("/").pop()!;
  await expect(page.getByRole("link", { name: "Lobbies" })).toHaveAttribute("href", `/applications/${applicationId}/lobbies`);
  await expect(page.getByText("Development rate limits apply")).toBeVisible();
  await expect(page.getByText("ask this server's operator to lift them")).toBeVisible();

  // Resetting asks first, then shows the new token once; the old one is refused from then on.
  await page.getByRole("button", { name: "Reset token" }).click();
  const confirm = page.getByRole("dialog", { name: "Reset the bot token?" });
  await expect(confirm).toContainText("every earlier token stops working");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect((await asBot(token)).status()).toBe(200);
  await page.getByRole("button", { name: "Reset token" }).click();
  await confirm.getByRole("button", { name: "Reset token" }).click();
  const fresh = page.getByRole("dialog", { name: "New bot token" });
  const newToken = await fresh.getByLabel("Bot token").inputValue();
  expect(newToken).not.toBe(token);
  await fresh.getByRole("button", { name: "I have stored it" }).click();
  await expect(fresh).toBeHidden();
  expect((await asBot(token)).status()).toBe(401);
  expect((await asBot(newToken)).status()).toBe(200);

  // Renaming: an empty name is refused on the field; a good one is saved.
  const name = page.getByRole("textbox", { name: "Name" });
  await name.fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Name is required.").first()).toBeVisible();
  await name.fill("Quest Runner Deluxe");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { name: "Quest Runner Deluxe", level: 1 })).toBeVisible();
  expect(await (await asBot(newToken)).json()).toMatchObject({ name: "Quest Runner Deluxe" });

  // The limited GUILD_MEMBERS intent, switched on here, is what the REST API reports.
  await expect(page.getByText("0 of 10,000 users")).toBeVisible();
  await page.getByRole("switch", { name: /Guild members/ }).click();
  const intents = page.getByRole("region", { name: "Privileged gateway intents" });
  await expect(intents.getByText("Enabled (limited)")).toBeVisible();
  expect(await (await asBot(newToken)).json()).toMatchObject({ flags: 1 << 15 });
  await page.screenshot({ path: testInfo.outputPath("application-page.png"), fullPage: true });
});

test("lists several applications, also in a narrow window; someone else's application is not found", async ({ page, signedIn }, testInfo) => {
  const names = ["Matchmaker", "A rather long application name!", "Lobby Keeper", "Stats", "Party Finder"];
  const apps = await seedApplications(signedIn.user.id, names);
  const stranger = await seedGuest("stranger");
  const [theirs] = await seedApplications(stranger.user.id, [uniqueName("Theirs")]);

  await page.goto("/applications");
  for (const name of names) await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: theirs!.name })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("applications-list.png"), fullPage: true });

  await page.setViewportSize({ width: 400, height: 860 });
  await page.screenshot({ path: testInfo.outputPath("applications-list-narrow.png"), fullPage: true });
  await page.getByRole("link", { name: "A rather long application name!" }).click();
  await expect(page.getByRole("heading", { name: "A rather long application name!", level: 1 })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("application-page-narrow.png"), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);

  await page.goto(`/applications/${theirs!.id}`);
  await expect(page.getByRole("heading", { name: "Nothing here" })).toBeVisible();
  // An operator's approval shows as such, and its switch can't take it back.
  await setApprovedIntents({ db: e2eDb(), actor: null }, apps[0]!.id, ["MESSAGE_CONTENT"], true);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(`/applications/${apps[0]!.id}`);
  await expect(page.getByRole("heading", { name: "Matchmaker", level: 1 })).toBeVisible();
  const intents = page.getByRole("region", { name: "Privileged gateway intents" });
  await expect(intents.getByText("Approved by an operator")).toBeVisible();
  await expect(intents.getByRole("switch", { name: /Message content/ })).toBeChecked();
  await expect(intents.getByRole("switch", { name: /Message content/ })).toBeDisabled();
  await intents.screenshot({ path: testInfo.outputPath("application-intents-approved.png") });
});
