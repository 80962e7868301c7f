import { checkOnLoad, expect, test } from "../fixtures.ts";
import { uniqueName } from "../seed.ts";

test("renames the guild and the new name is there after a reload", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const name = uniqueName("Renamed");
  await page.getByLabel("Guild name").fill(name);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("All changes saved.");

  await page.reload();
  await expect(page.getByLabel("Guild name")).toHaveValue(name);
  await expect(page.getByRole("navigation", { name: "Guild sections" })).toBeVisible();
  await page.getByRole("link", { name: "All guilds" }).click();
  await expect(page.getByRole("link", { name })).toBeVisible();
});

test("a one-character name is refused inline and not saved", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const nameInput = page.getByLabel("Guild name");
  await nameInput.fill("x");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(nameInput).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Must be between 2 and 100 in length.")).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Guild name")).toHaveValue(signedIn.guild.name);
});

test("a rule only the server knows is shown where it applies", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  // Community needs rules and updates channels, which a new guild doesn't have.
  await checkOnLoad(page.getByRole("switch", { name: "Community" }));
  await page.getByRole("button", { name: "Save changes" }).click();
  const features = page.getByRole("region", { name: "Features" });
  await expect(features.getByRole("alert")).toContainText("rules channel");
  await expect(page.getByText("Settings not saved")).toBeVisible();
});

test("the rename shows up in the audit log", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const name = uniqueName("Audited");
  await page.getByLabel("Guild name").fill(name);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();

  await page.getByRole("navigation", { name: "Guild sections" }).getByRole("link", { name: "Audit log" }).click();
  const entry = page.getByRole("row", { name: /Guild update/ });
  await expect(entry).toContainText("E2E Owner");
  await expect(entry).toContainText(`${signedIn.guild.name} → ${name}`);
});

test("the owner deletes the guild after typing its name", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  await page.getByRole("button", { name: "Delete guild" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete guild" });
  const confirm = dialog.getByRole("button", { name: "Delete guild" });
  await dialog.getByLabel("Type the guild name to confirm").fill("not the name");
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel("Type the guild name to confirm").fill(signedIn.guild.name);
  await confirm.click();

  await expect(page.getByRole("heading", { name: "Your guilds" })).toBeVisible();
  await expect(page.getByText("No guilds yet")).toBeVisible();
  await page.goto(`/guilds/${signedIn.guild.id}`);
  await expect(page.getByRole("heading", { name: "Nothing here" })).toBeVisible();
});

test("switches membership screening on, and it stays on after a reload", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const screening = page.getByRole("switch", { name: "Require new members to complete screening" });
  await expect(screening).not.toBeChecked();
  await screening.click();
  await expect(page.getByText("New members must complete screening.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("switch", { name: "Require new members to complete screening" })).toBeChecked();
});
