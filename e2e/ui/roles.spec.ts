import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { expect, signIn, test } from "../fixtures.ts";
import { seedMemberWithRoles, seedRolesAt } from "../seed.ts";

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

test("a moderator manages the roles below their own; at an equal position the older role ranks higher", async ({ page, owner }) => {
  // Elders, Mods and Peers share a position: Elders is older than Mods (above it), Peers newer (below it).
  const [, , mods] = await seedRolesAt(owner.guild.id, [
    { name: "Helpers", position: 1 },
    { name: "Elders", position: 2 },
    { name: "Mods", position: 2, permissions: P.ManageRoles | P.KickMembers },
    { name: "Peers", position: 2 },
  ]);
  const moderator = await seedMemberWithRoles(owner, "moderator", [mods!.id]);
  await signIn(page, moderator);
  await page.goto(`/guilds/${owner.guild.id}/roles`);

  // Shown in the hierarchy's order.
  const rows = page.getByRole("row");
  for (const [index, name] of ["Elders", "Mods", "Peers", "Helpers", "@everyone"].entries()) await expect(rows.nth(index + 1)).toContainText(name);
  const notBelow = "This role is not below your highest role.";
  await expect(page.getByRole("button", { name: `Edit Elders (${notBelow})`, exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: `Edit Mods (${notBelow})`, exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Edit Peers", exact: true })).toBeEnabled();
  // Moving Peers up would move Mods, the moderator's own role; Helpers may swap with Peers.
  await expect(page.getByRole("button", { name: /^Move Peers up \(/ })).toBeDisabled();

  await page.getByRole("button", { name: "Move Helpers up", exact: true }).click();
  await expect(rows.nth(3)).toContainText("Helpers");
  await expect(rows.nth(4)).toContainText("Peers");

  // The service takes what the page offers: a permission the moderator holds, not one they lack.
  await page.getByRole("button", { name: "Edit Peers", exact: true }).click();
  const drawer = page.getByRole("dialog", { name: "Edit role: Peers" });
  await expect(drawer.getByRole("checkbox", { name: "Ban members" })).toBeDisabled();
  await drawer.getByRole("checkbox", { name: "Kick members" }).check();
  await drawer.getByRole("button", { name: "Save role" }).click();
  await expect(page.getByText("Role saved")).toBeVisible();
});
