import { expect, test } from "../fixtures.ts";

test("a channel named 'Game Night' is saved as game-night", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("button", { name: "Create channel" }).click();
  const dialog = page.getByRole("dialog", { name: "Create channel" });
  await dialog.getByLabel("Channel name").fill("Game Night");
  // The form says what the name becomes before it is saved.
  await expect(dialog.getByText("Will be saved as #game-night")).toBeVisible();
  await dialog.getByRole("button", { name: "Create channel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("listitem", { name: "game-night", exact: true })).toBeVisible();
  await expect(page.getByRole("listitem", { name: "Game Night", exact: true })).toHaveCount(0);
});

test("a voice channel keeps its name as typed", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("button", { name: "Create channel" }).click();
  const dialog = page.getByRole("dialog", { name: "Create channel" });
  await dialog.getByLabel("Channel type").click();
  await page.getByRole("option", { name: "Voice" }).click();
  await dialog.getByLabel("Channel name").fill("Game Night");
  await expect(dialog.getByText(/Will be saved as/)).toHaveCount(0);
  await dialog.getByRole("button", { name: "Create channel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("listitem", { name: "Game Night", exact: true })).toBeVisible();
});
