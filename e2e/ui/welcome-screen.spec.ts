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

test("a recommended channel left unchosen is named in words and its row marked before anything is saved", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/welcome-screen`);
  await page.getByRole("button", { name: "Add channel" }).click();
  await page.getByLabel("What to do there").fill("Say hello");
  await page.getByRole("button", { name: "Save" }).click();

  await expect(page.getByRole("alert").filter({ hasText: "Welcome screen not saved" })).toContainText("Choose a channel for each row.");
  const row = page.getByRole("group", { name: "Recommended channel 1" });
  const channel = row.getByRole("combobox", { name: "Channel" });
  await expect(channel).toBeFocused();
  await expect(channel).toHaveAttribute("aria-invalid", "true");
  await expect(row.getByText("Choose a channel for each row.")).toBeVisible();
  await expect(page.getByText("Value is not snowflake.")).toHaveCount(0);
});
