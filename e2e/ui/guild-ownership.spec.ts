import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { expect, signIn, test } from "../fixtures.ts";
import { seedBotWithRole, seedMemberWithRoles, seedRolesAt } from "../seed.ts";

test("an owner hands the guild over to a moderator", async ({ page, signedIn }) => {
  const [mods] = await seedRolesAt(signedIn.guild.id, [{ name: "Mods", position: 1, permissions: P.ManageGuild | P.ManageRoles }]);
  const moderator = await seedMemberWithRoles(signedIn, "moderator", [mods!.id]);
  const { botUser } = await seedBotWithRole(signedIn);
  await page.goto(`/guilds/${signedIn.guild.id}`);

  const section = page.getByRole("region", { name: "Ownership" });
  await expect(section).toContainText("E2E Owner owns this guild.");
  await section.getByRole("button", { name: "Transfer ownership" }).click();
  const dialog = page.getByRole("dialog", { name: "Transfer ownership" });
  await expect(dialog).toContainText("You lose the owner's powers");

  // A bot member may own the guild too, and is marked as one.
  const picker = dialog.getByLabel("New owner");
  await picker.fill(botUser.username.slice(0, 8));
  await expect(page.getByRole("option", { name: `${botUser.username} (@${botUser.username}), a bot` })).toBeVisible();
  await picker.fill("moder");
  await page.getByRole("option", { name: "moderator (@moderator)" }).click();
  await expect(picker).toHaveValue("moderator (@moderator)");

  // Nothing happens until the guild's name is typed.
  const confirm = dialog.getByRole("button", { name: "Transfer ownership" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel("Type the guild name to confirm").fill(signedIn.guild.name);
  await confirm.click();
  await expect(page.getByText("Ownership transferred")).toBeVisible();
  await expect(dialog).toBeHidden();

  // The page now shows the new owner, and the former owner's owner-only actions are gone.
  await expect(section).toContainText("moderator owns this guild. Only the owner can transfer ownership.");
  await expect(section.getByRole("button", { name: "Transfer ownership" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Delete guild" })).toBeDisabled();

  // The new owner may hand it on.
  await page.context().clearCookies();
  await signIn(page, moderator);
  await page.goto(`/guilds/${signedIn.guild.id}`);
  await expect(section.getByRole("button", { name: "Transfer ownership" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Delete guild" })).toBeEnabled();
});
