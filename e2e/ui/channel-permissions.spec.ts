import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { listGuildChannels } from "~/server/channels/channel-read.service.ts";
import { expect, signIn, test } from "../fixtures.ts";
import { e2eDb, seedChannel, seedMemberWithRoles, seedRolesAt } from "../seed.ts";

/** The channel names a member of the guild can see, as GET /guilds/{guild.id}/channels lists them. */
async function visibleTo(userId: string, guildId: string): Promise<string[]> {
  const channels = await listGuildChannels({ db: e2eDb(), actor: dashboardActor(userId) }, { guildId });
  return channels.map((channel) => channel.name);
}

test("an owner makes a channel private for a role", async ({ page, owner }) => {
  const [staff] = await seedRolesAt(owner.guild.id, [{ name: "Staff", position: 1 }]);
  const staffer = await seedMemberWithRoles(owner, "staffer", [staff!.id]);
  const visitor = await seedMemberWithRoles(owner, "visitor", []);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/channels`);
  await page.getByRole("link", { name: "Permissions of general", exact: true }).click();
  await expect(page.getByRole("heading", { name: "#general permissions" })).toBeVisible();

  const privateSwitch = page.getByRole("switch", { name: "Private channel" });
  await expect(async () => {
    if (!(await privateSwitch.isChecked())) await privateSwitch.click();
    await expect(privateSwitch).toBeChecked({ timeout: 1000 });
  }).toPass();
  await page.getByRole("combobox", { name: "Who can view it", exact: true }).click();
  await page.getByRole("option", { name: "Staff" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("status")).toHaveText("You have unsaved changes.");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Permissions saved")).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("All changes saved.");

  expect(await visibleTo(visitor.user.id, owner.guild.id)).not.toContain("general");
  expect(await visibleTo(staffer.user.id, owner.guild.id)).toContain("general");

  // The channel list marks it private.
  await page.goto(`/guilds/${owner.guild.id}/channels`);
  await expect(page.getByRole("listitem", { name: "general", exact: true }).getByText("Private", { exact: true })).toBeVisible();

  // The visitor's own view of the guild no longer lists the channel.
  const context = await page.context().browser()!.newContext();
  const visitorPage = await context.newPage();
  await signIn(visitorPage, visitor);
  await visitorPage.goto(`/guilds/${owner.guild.id}/channels`);
  await expect(visitorPage.getByRole("region", { name: "Category Voice Channels" })).toBeVisible();
  await expect(visitorPage.getByRole("listitem", { name: "general", exact: true })).toBeHidden();
  await context.close();
});

test("a moderator without Manage Roles sees why they cannot edit", async ({ page, owner }) => {
  const [mods] = await seedRolesAt(owner.guild.id, [{ name: "Mods", position: 1, permissions: P.ManageChannels }]);
  const moderator = await seedMemberWithRoles(owner, "moderator", [mods!.id]);
  await signIn(page, moderator);
  await page.goto(`/guilds/${owner.guild.id}/channels`);
  await page.getByRole("link", { name: "Permissions of general", exact: true }).click();

  await expect(page.getByRole("alert", { name: "You can look, but not change these permissions" })).toContainText("Needs Manage roles in this channel.");
  await expect(page.getByRole("switch", { name: "Private channel" })).toBeDisabled();
  await expect(page.getByRole("radio", { name: "Deny" }).first()).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
});

test("inspecting a moderators-only channel shows who can see it and why", async ({ page, owner }) => {
  const [moderators] = await seedRolesAt(owner.guild.id, [{ name: "Moderators", position: 1, permissions: P.KickMembers }]);
  await seedChannel(owner, "moderators", [
    { id: owner.guild.id, type: 0, deny: P.ViewChannel },
    { id: moderators!.id, type: 0, allow: P.ViewChannel },
  ]);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/channels`);
  await page.getByRole("link", { name: "Permissions of moderators" }).click();

  await expect(page.getByRole("switch", { name: "Private channel" })).toBeChecked();
  await expect(page.getByRole("list", { name: "Roles and members with overwrites" })).toContainText("Moderators");
  await page.getByRole("button", { name: "Edit Moderators" }).click();
  const grid = page.getByRole("region", { name: "Permissions for Moderators" });
  await expect(grid.getByRole("radio", { name: "Allow" }).first()).toBeChecked();

  const effective = page.getByRole("region", { name: "Effective permissions" });
  await expect(page.getByRole("radio", { name: "Role" })).toBeChecked();
  const role = page.getByRole("combobox", { name: "Role", exact: true });
  await role.click();
  await page.getByRole("option", { name: "@everyone" }).click();
  await expect(effective.getByRole("listitem", { name: "View channel: denied" })).toContainText("Denied to @everyone here");
  await role.click();
  await page.getByRole("option", { name: "Moderators" }).click();
  await expect(effective.getByRole("listitem", { name: "View channel: allowed" })).toContainText("Allowed to Moderators here");
});
