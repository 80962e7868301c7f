import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { expect, signIn, test } from "../fixtures.ts";
import { seedChannel, seedMemberWithRoles, seedRolesAt } from "../seed.ts";

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

const NEEDS_HERE = "Needs Manage channels in this channel.";

test("an overwrite granting Manage Channels lets a member edit that channel, though not the guild's others", async ({ page, owner }) => {
  const [builders] = await seedRolesAt(owner.guild.id, [{ name: "Builders", position: 1 }]);
  await seedChannel(owner, "ops", [{ id: builders!.id, type: 0, allow: P.ManageChannels }]);
  const builder = await seedMemberWithRoles(owner, "builder", [builders!.id]);
  await signIn(page, builder);
  await page.goto(`/guilds/${owner.guild.id}/channels`);

  await expect(page.getByRole("button", { name: `Edit general (${NEEDS_HERE})`, exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Create channel" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Delete ops", exact: true })).toBeEnabled();
  await page.getByRole("button", { name: "Edit ops", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit ops" });
  await dialog.getByLabel("Channel name").fill("ops-room");
  await dialog.getByRole("button", { name: /Save/ }).click();
  await expect(page.getByText("Channel saved")).toBeVisible();
  await expect(page.getByRole("listitem", { name: "ops-room" })).toBeVisible();
});

test("an overwrite denying Manage Channels locks that channel for a member who has it guild-wide", async ({ page, owner }) => {
  const [builders] = await seedRolesAt(owner.guild.id, [{ name: "Builders", position: 1, permissions: P.ManageChannels }]);
  await seedChannel(owner, "archive", [{ id: builders!.id, type: 0, deny: P.ManageChannels }]);
  const builder = await seedMemberWithRoles(owner, "builder", [builders!.id]);
  await signIn(page, builder);
  await page.goto(`/guilds/${owner.guild.id}/channels`);

  await expect(page.getByRole("button", { name: `Edit archive (${NEEDS_HERE})`, exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: `Delete archive (${NEEDS_HERE})`, exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Edit general", exact: true })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Create channel" })).toBeEnabled();
});
