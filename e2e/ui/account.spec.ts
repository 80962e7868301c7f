import { checkOnLoad, expect, pickFromMenu, test } from "../fixtures.ts";
import { e2eDb } from "../seed.ts";

test("sets who sees the custom status from the account menu, with each choice's effect in words", async ({ page, signedIn }, testInfo) => {
  await page.goto("/");
  await pickFromMenu(page, /^Account menu for/, "Account");
  await page.waitForURL(/\/account$/);
  await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  const choices = page.getByRole("radiogroup", { name: "Show my custom status to" });
  await expect(choices.getByRole("radio", { name: "Everyone" })).toBeChecked();
  await expect(page.getByRole("status")).toHaveText("Now: Your custom status is shown to bots in every server you are in.");

  await checkOnLoad(choices.getByRole("radio", { name: "Friends and small servers" }));
  await expect(page.getByText("Privacy saved")).toBeVisible();
  await expect(page.getByRole("status")).toContainText("servers of up to 200 members, and hidden in larger ones");
  await page.screenshot({ path: testInfo.outputPath("account.png"), fullPage: true });
  await expect.poll(async () => (await e2eDb().user.findUniqueOrThrow({ where: { id: signedIn.user.id } })).profilePrivacy).toBe("friends_and_small_servers");

  await page.reload();
  await expect(page.getByRole("radiogroup", { name: "Show my custom status to" }).getByRole("radio", { name: "Friends and small servers" })).toBeChecked();
});
