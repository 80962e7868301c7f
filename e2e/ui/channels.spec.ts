import { expect, test } from "../fixtures.ts";

test("creates a text channel inside a category", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("button", { name: "Create channel" }).click();
  const dialog = page.getByRole("dialog", { name: "Create channel" });
  await dialog.getByLabel("Channel name").fill("release-notes");
  await dialog.getByLabel("Topic").fill("What shipped this week");
  await dialog.getByLabel("Category", { exact: true }).click();
  await page.getByRole("option", { name: "Text Channels" }).click();
  await dialog.getByRole("button", { name: "Create channel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Channel created")).toBeVisible();

  const category = page.getByRole("region", { name: "Category Text Channels" });
  const channel = category.getByRole("listitem", { name: "release-notes" });
  await expect(channel).toContainText("What shipped this week");

  await page.reload();
  await expect(page.getByRole("region", { name: "Category Text Channels" }).getByRole("listitem", { name: "release-notes" })).toBeVisible();
});

test("deleting a channel asks first", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("button", { name: "Delete General", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Delete channel" });
  await expect(confirm).toContainText("Delete General?");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("listitem", { name: "General", exact: true })).toBeHidden();
  await expect(page.getByRole("region", { name: "Category Voice Channels" })).toContainText("No channels in this category.");
});
