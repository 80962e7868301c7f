import { expect, test } from "../fixtures.ts";
import { seedWebhook } from "../seed.ts";

test("the test preview shows a mention as a name", async ({ page, signedIn }) => {
  const { channel } = await seedWebhook(signedIn, "Deploy notices");
  await page.goto(`/guilds/${signedIn.guild.id}/channels/${channel.id}/webhooks`);
  await page.getByRole("button", { name: "Send a test message with Deploy notices" }).click();
  const tester = page.getByRole("dialog", { name: "Send a test message" });
  await tester.getByLabel("Content").fill(`Deployed by <@${signedIn.user.id}> to <#${channel.id}>, **all green**`);
  await tester.getByRole("button", { name: "Send", exact: true }).click();

  // Drawn as the Messages view draws it: names for mentions, markdown as formatting.
  const shown = tester.getByLabel("Posted message");
  await expect(shown).toContainText("Deployed by @E2E Owner to #general, all green");
  await expect(shown.locator("strong")).toHaveText("all green");
  await expect(shown).not.toContainText("<@");
  await expect(shown.getByRole("article", { name: "Message from Deploy notices" })).toBeVisible();
});
