import { expect, test } from "../fixtures.ts";

test("edits the welcome screen with a live preview, enables it and keeps it", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/welcome-screen`);
  const preview = page.getByRole("region", { name: "Welcome screen preview" });
  await expect(preview.getByRole("heading", { name: `Welcome to ${signedIn.guild.name}!` })).toBeVisible();
  await expect(page.getByText("No channels yet.")).toBeVisible();

  await page.getByLabel("Description").fill("A guild for testing the welcome screen.");
  await expect(preview).toContainText("A guild for testing the welcome screen.");
  await page.getByRole("button", { name: "Add channel" }).click();
  await page.getByRole("combobox", { name: "Channel" }).click();
  await page.getByRole("option", { name: "# general" }).click();
  await page.getByLabel("Emoji of channel 1").fill("👋");
  await page.getByLabel("What to do there").fill("Say hello");
  await expect(preview).toContainText("Say hello");
  await expect(preview).toContainText("# general");
  await expect(preview).toContainText("👋");

  await page.getByLabel("Show the welcome screen").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Welcome screen saved")).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Show the welcome screen")).toBeChecked();
  await expect(page.getByLabel("Description")).toHaveValue("A guild for testing the welcome screen.");
  await expect(preview).toContainText("Say hello");
});
