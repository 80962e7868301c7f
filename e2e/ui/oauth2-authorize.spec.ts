import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { E2E_BASE_URL } from "../e2e-env.ts";
import { expect, pickFromMenu, test } from "../fixtures.ts";
import { e2eDb, seedOAuth2Application } from "../seed.ts";

// The client's redirect lands on a dashboard page, so the browser's arrival shows what the client was sent.
const CALLBACK = `${E2E_BASE_URL}/account/authorized-apps`;

test("adds a bot through its install link: picks the guild, unticks a permission, and the bot is in Members with its role", async ({
  page,
  signedIn,
}, testInfo) => {
  const { application, botUser } = await seedOAuth2Application(CALLBACK);
  const asked = P.SendMessages | P.EmbedLinks | P.ManageMessages;
  await page.goto(`/oauth2/authorize?client_id=${application.id}&scope=bot%20applications.commands&permissions=${asked}`);

  await expect(page.getByRole("heading", { name: application.name })).toBeVisible();
  await expect(page.getByText("add a bot to a server")).toBeVisible();
  await expect(page.getByText("create commands in a server")).toBeVisible();

  const guildPicker = page.getByRole("combobox", { name: "Add to server" });
  await expect(async () => {
    await guildPicker.click();
    await expect(page.getByRole("option", { name: signedIn.guild.name })).toBeVisible({ timeout: 2000 });
  }).toPass();
  await page.getByRole("option", { name: signedIn.guild.name }).click();
  await expect(guildPicker).toHaveValue(signedIn.guild.name);

  const manageMessages = page.getByRole("checkbox", { name: "Manage messages" });
  await expect(manageMessages).toBeChecked();
  await manageMessages.click();
  await expect(manageMessages).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Send messages", exact: true })).toBeChecked();
  await page.screenshot({ path: testInfo.outputPath("oauth2-consent-bot.png"), fullPage: true });

  await page.getByRole("button", { name: "Authorize" }).click();
  await expect(page.getByRole("heading", { name: `${application.name} was added to ${signedIn.guild.name}` })).toBeVisible();

  const role = await e2eDb().role.findFirstOrThrow({ where: { guildId: signedIn.guild.id, botId: botUser.id } });
  expect(role.permissions).toBe(P.SendMessages | P.EmbedLinks);

  await page.goto(`/guilds/${signedIn.guild.id}/members`);
  const row = page.getByRole("row").filter({ hasText: botUser.username });
  await expect(row).toBeVisible();
  // Its managed role, named after the application, is the role chip in its row.
  await expect(row.getByText(application.name, { exact: true }).first()).toBeVisible();
});

test("authorizes an application, lists it under Authorized apps, and deauthorizes it", async ({ page, signedIn: _signedIn }, testInfo) => {
  const { application } = await seedOAuth2Application(CALLBACK);
  const link = new URLSearchParams({ client_id: application.id, response_type: "code", scope: "identify guilds", redirect_uri: CALLBACK, state: "e2e-state" });
  await page.goto(`/oauth2/authorize?${link}`);
  await expect(page.getByText("access your username, avatar and banner")).toBeVisible();
  await expect(page.getByText("know what servers you're in")).toBeVisible();
  await expect(page.getByText(`Once you authorize, you will be sent to ${new URL(CALLBACK).host}.`)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("oauth2-consent-user.png"), fullPage: true });

  await expect(async () => {
    await page.getByRole("button", { name: "Authorize" }).click();
    await page.waitForURL(/\/account\/authorized-apps\?/, { timeout: 3000 });
  }).toPass();
  const answer = new URL(page.url()).searchParams;
  expect(answer.get("code")).toBeTruthy();
  expect(answer.get("state")).toBe("e2e-state");
  expect(answer.get("iss")).toBe(E2E_BASE_URL);

  const card = page.getByRole("region", { name: application.name });
  await expect(card).toBeVisible();
  await expect(card.getByText("know what servers you're in")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("authorized-apps.png"), fullPage: true });

  await card.getByRole("button", { name: "Deauthorize" }).click();
  const dialog = page.getByRole("dialog", { name: "Deauthorize application" });
  await dialog.getByRole("button", { name: "Deauthorize" }).click();
  await expect(card).toBeHidden();
  await expect(page.getByText("No authorized apps")).toBeVisible();

  // The account menu leads here too.
  await page.goto("/account");
  await pickFromMenu(page, /^Account menu for/, "Authorized apps");
  await page.waitForURL(/\/account\/authorized-apps$/);
  await expect(page.getByText("No authorized apps")).toBeVisible();
});

test("shows an error that cannot go back to the client on the page", async ({ page, signedIn: _signedIn }, testInfo) => {
  const { application } = await seedOAuth2Application(CALLBACK);
  await page.goto(
    `/oauth2/authorize?client_id=${application.id}&response_type=code&scope=identify&redirect_uri=${encodeURIComponent("https://elsewhere.example/cb")}`,
  );
  await expect(page.getByRole("heading", { name: "This authorization link cannot be used" })).toBeVisible();
  await expect(page.getByRole("alert", { name: "invalid_request" })).toContainText("redirect_uri is not one the application registered");
  expect(new URL(page.url()).host).toBe(new URL(E2E_BASE_URL).host);
  await page.screenshot({ path: testInfo.outputPath("oauth2-error.png"), fullPage: true });
});

test("sends a signed-out visitor to sign in first, and back to the request", async ({ page, owner }) => {
  const { application } = await seedOAuth2Application(CALLBACK);
  const path = `/oauth2/authorize?client_id=${application.id}&scope=bot&permissions=2048`;
  await page.goto(path);
  await page.waitForURL(/\/signin\?callbackUrl=/);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: application.name })).toBeVisible();
  expect(page.url()).toContain("/oauth2/authorize?");
});
