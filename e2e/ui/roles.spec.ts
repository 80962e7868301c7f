import { expect, test } from "../fixtures.ts";

test("creates roles and moves one above the other", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/roles`);
  await expect(page.getByText("No roles yet")).toBeVisible();

  for (const name of ["Moderators", "Regulars"]) {
    await page.getByRole("button", { name: "Create role" }).click();
    const dialog = page.getByRole("dialog", { name: "Create role" });
    await dialog.getByLabel("Role name").fill(name);
    await dialog.getByRole("button", { name: "Create role" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toBeVisible();
  }

  // New roles start just above @everyone, so the newest is lowest of the two.
  const rows = page.getByRole("row");
  await expect(rows.nth(1)).toContainText("Moderators");
  await expect(rows.nth(2)).toContainText("Regulars");
  await expect(rows.nth(3)).toContainText("@everyone");

  await page.getByRole("button", { name: "Move Regulars up" }).click();
  await expect(rows.nth(1)).toContainText("Regulars");
  await expect(rows.nth(2)).toContainText("Moderators");

  await page.reload();
  await expect(rows.nth(1)).toContainText("Regulars");
  await expect(rows.nth(2)).toContainText("Moderators");
});

test("edits a role's permissions in the drawer", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/roles`);
  await page.getByRole("button", { name: "Create role" }).click();
  await page.getByRole("dialog", { name: "Create role" }).getByLabel("Role name").fill("Helpers");
  await page.getByRole("dialog", { name: "Create role" }).getByRole("button", { name: "Create role" }).click();

  await page.getByRole("button", { name: "Edit Helpers" }).click();
  const drawer = page.getByRole("dialog", { name: "Edit role: Helpers" });
  await drawer.getByRole("checkbox", { name: "Kick members" }).check();
  await drawer.getByRole("switch", { name: "Display members separately" }).check();
  await drawer.getByRole("button", { name: "Save role" }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole("row", { name: /Helpers/ })).toContainText("Shown separately");

  await page.getByRole("button", { name: "Edit Helpers" }).click();
  await expect(page.getByRole("dialog", { name: "Edit role: Helpers" }).getByRole("checkbox", { name: "Kick members" })).toBeChecked();
});
