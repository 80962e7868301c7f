import { PermissionFlagsBits } from "discord-api-types/v10";
import type { Page } from "@playwright/test";
import { createApplication } from "~/server/applications/application.service.ts";
import { isClientSecret } from "~/server/oauth2/client-settings.ts";
import { expect, test } from "../fixtures.ts";
import { e2eDb, uniqueName } from "../seed.ts";

async function pick(page: Page, label: string, option: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** Switches a switch once the previous change has saved (a saving change disables them all). */
async function flip(page: Page, name: string, to: boolean) {
  const control = page.getByRole("switch", { name });
  await expect(control).toBeEnabled();
  await expect(async () => {
    if ((await control.isChecked()) !== to) await control.click();
    await expect(control).toBeChecked({ checked: to, timeout: 1000 });
  }).toPass();
  await expect(control).toBeEnabled();
}

test("the developer portal: client secret once, redirect URIs, bot switches and an install link", async ({ page, signedIn, request, context }, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { application, botToken } = await e2eDb().$transaction((tx) => createApplication(tx, { name: uniqueName("Portal"), ownerId: signedIn.user.id }));
  const stored = () => e2eDb().application.findUniqueOrThrow({ where: { id: application.id } });
  await page.goto(`/applications/${application.id}`);
  await expect(page.getByRole("heading", { name: application.name, level: 1 })).toBeVisible();
  const oauth2 = page.getByRole("region", { name: "OAuth2" });
  await expect(oauth2.getByText("None yet. Reset it to make one.")).toBeVisible();
  await expect(page.getByRole("region", { name: "General information" }).getByText((await stored()).verifyKey!)).toBeVisible();

  // The client secret: asked first, shown once, matching the stored digest, gone after a reload.
  await expect(async () => {
    await oauth2.getByRole("button", { name: "Reset secret" }).click();
    await expect(page.getByRole("dialog", { name: "Reset the client secret?" })).toBeVisible({ timeout: 1000 });
  }).toPass();
  const confirm = page.getByRole("dialog", { name: "Reset the client secret?" });
  await expect(confirm).toContainText("the current one stops working");
  await confirm.getByRole("button", { name: "Reset secret" }).click();
  const reveal = page.getByRole("dialog", { name: "New client secret" });
  await expect(reveal.getByText("Store it now: it won't be shown again")).toBeVisible();
  const secret = await reveal.getByLabel("Client secret").inputValue();
  expect(isClientSecret(await stored(), secret)).toBe(true);
  await reveal.getByRole("button", { name: "Copy" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.screenshot({ path: testInfo.outputPath("portal-secret.png") });
  await reveal.getByRole("button", { name: "I have stored it" }).click();
  await expect(reveal).toBeHidden();
  await page.reload();
  await expect(oauth2.getByText("Set. It was shown once, when it was made.")).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  // Redirect URIs: an invalid one is refused in words, a good one is kept.
  const newUri = oauth2.getByRole("textbox", { name: "New redirect URI" });
  await newUri.fill("https://game.example/cb#fragment");
  await oauth2.getByRole("button", { name: "Add" }).click();
  await expect(oauth2.getByText("Not a valid redirect URI: an absolute URL without a fragment.")).toBeVisible();
  await newUri.fill("https://game.example/callback");
  await oauth2.getByRole("button", { name: "Add" }).click();
  const uris = oauth2.getByRole("list", { name: "Redirect URIs" });
  await expect(uris.getByText("https://game.example/callback")).toBeVisible();
  await expect(newUri).toHaveValue("");

  // Public bot off, the code grant on: both persist, and the REST API reports them.
  await flip(page, "Public bot", false);
  await flip(page, "Requires OAuth2 code grant", true);
  await page.reload();
  await expect(page.getByRole("switch", { name: "Public bot" })).not.toBeChecked();
  await expect(page.getByRole("switch", { name: "Requires OAuth2 code grant" })).toBeChecked();
  await expect(page.getByRole("list", { name: "Redirect URIs" }).getByText("https://game.example/callback")).toBeVisible();
  const me = await request.get("/api/v10/applications/@me", { headers: { Authorization: `Bot ${botToken}` } });
  expect(await me.json()).toMatchObject({ bot_public: false, bot_require_code_grant: true });

  // The install link: bot with two permissions, the owner's guild locked, back to the registered URI.
  const install = page.getByRole("region", { name: "Install link" });
  await expect(install.getByText("Tick at least one scope.")).toBeVisible();
  await install.getByRole("checkbox", { name: "bot", exact: true }).check();
  await install.getByRole("checkbox", { name: /^Send messages$/i }).check();
  await install.getByRole("checkbox", { name: /^Embed links$/i }).check();
  const permissions = PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;
  await expect(install.getByText(`Permissions integer ${permissions}`)).toBeVisible();
  // The bot requires the code grant, so the link waits for a redirect URI.
  await expect(install.getByText("pick a redirect URI")).toBeVisible();
  await pick(page, "Guild", signedIn.guild.name);
  await install.getByRole("checkbox", { name: "Disable guild select" }).check();
  await pick(page, "Redirect URI", "https://game.example/callback");
  const generated = install.getByRole("textbox", { name: "Generated URL" });
  await expect(generated).toBeVisible();
  const url = new URL(await generated.inputValue());
  expect(`${url.origin}${url.pathname}`).toBe(new URL("/oauth2/authorize", page.url()).href);
  expect(Object.fromEntries(url.searchParams)).toEqual({
    client_id: application.id,
    permissions: permissions.toString(),
    integration_type: "0",
    scope: "bot",
    response_type: "code",
    redirect_uri: "https://game.example/callback",
    guild_id: signedIn.guild.id,
    disable_guild_select: "true",
  });
  await expect(install.getByRole("link", { name: "Open" })).toHaveAttribute("href", url.href);
  await install.getByRole("button", { name: "Copy link" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url.href);
  await expect(install.getByText("Your bot is private")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("portal-desktop.png"), fullPage: true });
  await oauth2.screenshot({ path: testInfo.outputPath("portal-desktop-oauth2.png") });
  await install.getByRole("group", { name: "Scopes" }).screenshot({ path: testInfo.outputPath("portal-desktop-scopes.png") });

  await page.setViewportSize({ width: 400, height: 860 });
  await expect(generated).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("portal-phone.png"), fullPage: true });
  await page.getByRole("region", { name: "General information" }).screenshot({ path: testInfo.outputPath("portal-phone-general.png") });
  await oauth2.screenshot({ path: testInfo.outputPath("portal-phone-oauth2.png") });
  await install.getByRole("group", { name: "Scopes" }).screenshot({ path: testInfo.outputPath("portal-phone-scopes.png") });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
});
