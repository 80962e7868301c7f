import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "../fixtures.ts";
import { seedBotWithRole, seedMemberWithRoles, seedRolesAt } from "../seed.ts";

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

/** Drags a role by its handle with the pointer and drops it on another role's row. */
async function dragRole(page: Page, name: string, onto: string) {
  const handle = (await page.getByRole("button", { name: `Drag ${name}`, exact: true }).boundingBox())!;
  const target = (await page.getByRole("row", { name: new RegExp(onto) }).boundingBox())!;
  const x = handle.x + handle.width / 2;
  await page.mouse.move(x, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(x, handle.y + handle.height / 2 + 8, { steps: 2 });
  await page.mouse.move(x, target.y + target.height / 2, { steps: 10 });
  await page.mouse.up();
  // The handles come back once the new order is saved.
  await expect(page.getByRole("button", { name: `Drag ${name}`, exact: true })).toBeEnabled();
}

async function expectOrder(page: Page, names: readonly string[]) {
  const rows = page.getByRole("row");
  for (const [index, name] of names.entries()) await expect(rows.nth(index + 1)).toContainText(name);
}

test("a role moved down can be moved back up", async ({ page, signedIn }) => {
  await seedRolesAt(signedIn.guild.id, [{ name: "Regulars", position: 1 }]);
  // The bot's role is made just above @everyone, below Regulars.
  const { role: botRole } = await seedBotWithRole(signedIn);
  await page.goto(`/guilds/${signedIn.guild.id}/roles`);
  await expectOrder(page, ["Regulars", botRole.name, "@everyone"]);

  // By the arrows, past the bot's role and back.
  await page.getByRole("button", { name: "Move Regulars down", exact: true }).click();
  await expectOrder(page, [botRole.name, "Regulars", "@everyone"]);
  await page.getByRole("button", { name: "Move Regulars up", exact: true }).click();
  await expectOrder(page, ["Regulars", botRole.name, "@everyone"]);

  // By dragging with the pointer.
  await dragRole(page, "Regulars", botRole.name);
  await expectOrder(page, [botRole.name, "Regulars", "@everyone"]);
  await page.reload();
  await expectOrder(page, [botRole.name, "Regulars", "@everyone"]);
  await dragRole(page, "Regulars", botRole.name);
  await expectOrder(page, ["Regulars", botRole.name, "@everyone"]);

  // By dragging with the keyboard: Space picks the role up, an arrow moves it, Space drops it.
  const handle = page.getByRole("button", { name: "Drag Regulars", exact: true });
  await expect(handle).toBeEnabled();
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("status").filter({ hasText: `Regulars is over ${botRole.name}.` })).toBeAttached();
  await page.keyboard.press("Space");
  await expectOrder(page, [botRole.name, "Regulars", "@everyone"]);
  await expect(handle).toBeEnabled();
  await page.reload();
  await expectOrder(page, [botRole.name, "Regulars", "@everyone"]);
});

test("a new role can be moved above a bot's role", async ({ page, owner }) => {
  const [mods] = await seedRolesAt(owner.guild.id, [{ name: "Mods", position: 1, permissions: P.ManageRoles }]);
  const { application, role: botRole } = await seedBotWithRole(owner);
  const moderator = await seedMemberWithRoles(owner, "moderator", [mods!.id]);
  await signIn(page, moderator);
  await page.goto(`/guilds/${owner.guild.id}/roles`);

  await page.getByRole("button", { name: "Create role" }).click();
  const dialog = page.getByRole("dialog", { name: "Create role" });
  await dialog.getByLabel("Role name").fill("Helpers");
  await dialog.getByRole("button", { name: "Create role" }).click();
  await expect(dialog).toBeHidden();
  // New roles start just above @everyone, below the bot's role.
  await expectOrder(page, ["Mods", botRole.name, "Helpers", "@everyone"]);

  // Only the bot's role says it is managed, and by which bot.
  const botRow = page.getByRole("row", { name: new RegExp(botRole.name) });
  await botRow.getByText(/^Managed/).hover();
  await expect(page.getByRole("tooltip")).toHaveText(`Managed by the bot ${application.name}.`);
  await expect(page.getByRole("row", { name: /Helpers/ }).getByText("Managed")).toHaveCount(0);

  await page.getByRole("button", { name: "Move Helpers up", exact: true }).click();
  await expectOrder(page, ["Mods", "Helpers", botRole.name, "@everyone"]);
  // Not above the moderator's own role.
  await expect(page.getByRole("button", { name: /^Move Helpers up \(/ })).toBeDisabled();
  await page.reload();
  await expectOrder(page, ["Mods", "Helpers", botRole.name, "@everyone"]);
});
