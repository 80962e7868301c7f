import type { Locator } from "@playwright/test";
import { expect, pickFromMenu, test } from "../fixtures.ts";

/** Opens a collapsed section or route; a click before the page is hydrated is lost, so it is repeated until it takes. */
async function expand(control: Locator) {
  await expect(async () => {
    if ((await control.getAttribute("aria-expanded")) !== "true") await control.click();
    await expect(control).toHaveAttribute("aria-expanded", "true", { timeout: 1000 });
  }).toPass();
}

test("lists every route by tag, filters them by path or name, and shows a route's body as fields", async ({ page, signedIn: _signedIn }, testInfo) => {
  await page.goto("/");
  await pickFromMenu(page, /^Account menu for/, "API reference");
  await page.waitForURL(/\/reference$/);
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  const count = page.getByText(/^\d+ of \d+ routes$/);
  const total = Number((await count.textContent())!.split(" of ")[1]!.split(" ")[0]);
  expect(total).toBeGreaterThan(100);
  await expect(count).toHaveText(`${total} of ${total} routes`);

  await expand(page.getByRole("button", { name: /^Members\b/ }));
  const updateMember = page.getByRole("button", { name: /^PATCH \/guilds\/\{guildId\}\/members\/\{userId\} Update guild member · Bot token/ });
  await expect(updateMember).toBeVisible();
  await expand(updateMember);
  const details = page.locator(`#${await updateMember.getAttribute("aria-controls")}`);
  await expect(details.getByText("Body (application/json, optional)")).toBeVisible();
  await expect(details.getByText("communication_disabled_until", { exact: true })).toBeVisible();
  await expect(details.getByText("GuildMemberResponse", { exact: true })).toBeVisible();

  // Filtering: by path words, then by name; the count says how many are left.
  const filter = page.getByLabel("Filter routes");
  await filter.fill("lobbies members bulk");
  await expect(count).toHaveText(`1 of ${total} routes`);
  const bulk = page.getByRole("button", { name: /^POST \/lobbies\/\{lobbyId\}\/members\/bulk/ });
  await expand(bulk);
  const bulkDetails = page.locator(`#${await bulk.getAttribute("aria-controls")}`);
  await expect(bulkDetails.getByText("Body (application/json)")).toBeVisible();
  await expect(bulkDetails.getByText("1–25 items")).toBeVisible();
  await expect(
    bulkDetails
      .getByRole("listitem")
      .filter({ has: page.getByText("id", { exact: true }) })
      .first(),
  ).toContainText("required");
  await expect(page.getByRole("button", { name: /^PATCH \/guilds\/\{guildId\}\/members\/\{userId\}/ })).toBeHidden();

  await page.screenshot({ path: testInfo.outputPath("api-reference-desktop.png"), fullPage: true });

  await filter.fill("guild member");
  await expect(page.getByRole("button", { name: /Update guild member/ })).toBeVisible();
  await filter.fill("no such route anywhere");
  await expect(page.getByText("No route matches “no such route anywhere”.")).toBeVisible();

  // A phone: the same page in one column, nothing wider than the screen.
  await filter.fill("members");
  await page.setViewportSize({ width: 390, height: 844 });
  await expand(page.getByRole("button", { name: /^PATCH \/guilds\/\{guildId\}\/members\/@me Update my guild member/ }));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath("api-reference-phone.png"), fullPage: true });
});
