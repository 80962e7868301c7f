import type { Page } from "@playwright/test";
import { expect, openMenu, pickFromMenu, signIn, test } from "../fixtures.ts";
import { seedMembers, seedPendingMember, seedRole } from "../seed.ts";

/** Opens a member's row menu and picks an action. */
const memberAction = (page: Page, username: string, action: string) => pickFromMenu(page, `Actions for ${username}`, action);

const memberRow = (page: Page, username: string) => page.getByRole("row", { name: new RegExp(`@${username}\\b`) });

test("times out a member, shows the badge, and removes the timeout", async ({ page, owner }) => {
  await seedMembers(owner.guild.id, ["troublemaker"]);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/members`);
  await expect(memberRow(page, "troublemaker")).not.toContainText("Timed out");

  await memberAction(page, "troublemaker", "Time out");
  const dialog = page.getByRole("dialog", { name: "Time out member" });
  await dialog.getByText("10 minutes", { exact: true }).click();
  await dialog.getByLabel("Reason").fill("Flooding the chat");
  await dialog.getByRole("button", { name: "Time out" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Member timed out")).toBeVisible();
  await expect(memberRow(page, "troublemaker")).toContainText("Timed out");

  await memberAction(page, "troublemaker", "Edit timeout");
  await page.getByRole("dialog", { name: "Edit timeout" }).getByRole("button", { name: "Remove timeout" }).click();
  await expect(page.getByText("Timeout removed")).toBeVisible();
  await expect(memberRow(page, "troublemaker")).not.toContainText("Timed out");
});

test("kicks a member after confirming", async ({ page, owner }) => {
  await seedMembers(owner.guild.id, ["leaver", "stayer"]);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/members`);

  await memberAction(page, "leaver", "Kick");
  const confirm = page.getByRole("dialog", { name: "Kick member" });
  await expect(confirm).toContainText("Kick leaver");
  await confirm.getByLabel("Reason").fill("Asked to leave");
  await confirm.getByRole("button", { name: "Kick leaver" }).click();
  await expect(confirm).toBeHidden();
  await expect(memberRow(page, "leaver")).toHaveCount(0);
  await expect(memberRow(page, "stayer")).toBeVisible();

  // The owner can't be kicked: the action stays in the menu, disabled, with the reason.
  await expect(await openMenu(page, "Actions for E2E Owner", /Kick/)).toBeDisabled();
  await expect(page.getByRole("menuitem", { name: /Kick/ })).toContainText("You cannot do this to yourself.");
});

test("bans a member and unbans them on the Bans page", async ({ page, owner }) => {
  await seedMembers(owner.guild.id, ["raider"]);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/members`);

  await memberAction(page, "raider", "Ban");
  const confirm = page.getByRole("dialog", { name: "Ban member" });
  await confirm.getByLabel("Delete message history").click();
  await page.getByRole("option", { name: "Previous hour" }).click();
  await confirm.getByLabel("Reason").fill("Raid account");
  await confirm.getByRole("button", { name: "Ban raider" }).click();
  await expect(confirm).toBeHidden();
  await expect(memberRow(page, "raider")).toHaveCount(0);

  await page.getByRole("navigation", { name: "Guild sections" }).getByRole("link", { name: "Bans" }).click();
  await expect(page.getByRole("heading", { name: "Bans" })).toBeVisible();
  const ban = page.getByRole("row", { name: /raider/ });
  await expect(ban).toContainText("Raid account");

  await page.getByLabel("Search bans").fill("zz");
  await expect(page.getByText("No bans match")).toBeVisible();
  await page.getByLabel("Search bans").fill("RAI");
  await expect(ban).toBeVisible();

  await page.getByRole("button", { name: "Unban raider" }).click();
  const unban = page.getByRole("dialog", { name: "Unban user" });
  await expect(unban).toContainText("Raid account");
  await unban.getByRole("button", { name: "Unban raider" }).click();
  await expect(unban).toBeHidden();
  await expect(page.getByText("User unbanned")).toBeVisible();
  await expect(ban).toHaveCount(0);
});

test("bans selected members together", async ({ page, owner }) => {
  await seedMembers(owner.guild.id, ["spam_one", "spam_two", "regular"]);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/members`);

  await page.getByLabel("Search members").fill("spam");
  await expect(memberRow(page, "regular")).toHaveCount(0);
  await page.getByRole("checkbox", { name: "Select spam_one" }).check();
  await page.getByRole("checkbox", { name: "Select spam_two" }).check();
  await page.getByRole("button", { name: "Ban selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Ban selected members" });
  await dialog.getByRole("button", { name: "Ban 2 members" }).click();
  await expect(dialog).toContainText("Banned 2 of 2");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByText("No members match")).toBeVisible();

  await page.getByLabel("Search members").fill("");
  await expect(memberRow(page, "regular")).toBeVisible();
});

test("previews a prune count as the inputs change, then prunes", async ({ page, owner }) => {
  const regulars = await seedRole(owner, "Regulars");
  await seedMembers(owner.guild.id, ["sleeper_a", "sleeper_b"], { inactiveDays: 40 });
  await seedMembers(owner.guild.id, ["sleeper_c"], { inactiveDays: 40, roleIds: [regulars.id] });
  await seedMembers(owner.guild.id, ["awake"]);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/members`);

  await page.getByRole("button", { name: "Prune" }).click();
  const dialog = page.getByRole("dialog", { name: "Prune inactive members" });
  // sleeper_c has a role, so only the two without roles count until Regulars is included.
  await expect(dialog).toContainText("2 members inactive for 7 days would be removed");
  await dialog.getByLabel("Also prune members with these roles").click();
  await page.getByRole("option", { name: "Regulars" }).click();
  await expect(dialog).toContainText("3 members inactive for 7 days would be removed");
  await dialog.getByLabel("Inactive for at least (days)").fill("30");
  await expect(dialog).toContainText("3 members inactive for 30 days would be removed");

  await dialog.getByRole("button", { name: "Prune 3 members" }).click();
  await expect(dialog).toContainText("Removed 3 members");
  await dialog.getByRole("button", { name: "Done" }).click();
  for (const name of ["sleeper_a", "sleeper_b", "sleeper_c"]) await expect(memberRow(page, name)).toHaveCount(0);
  await expect(memberRow(page, "awake")).toBeVisible();
});

test("the member drawer shows permissions with their sources and switches a flag", async ({ page, owner }) => {
  await seedMembers(owner.guild.id, ["newbie"]);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/members`);

  const drawer = page.getByRole("dialog", { name: "Member details" });
  // As with the row menu: a click before hydration opens nothing, so click until it shows.
  await expect(async () => {
    if (!(await drawer.isVisible())) await memberRow(page, "newbie").getByText("@newbie").click();
    await expect(drawer).toBeVisible({ timeout: 2000 });
  }).toPass();
  await expect(drawer).toContainText("@newbie");
  await expect(drawer.getByRole("row", { name: /View channels/ })).toContainText("@everyone");
  const bypass = drawer.getByRole("switch", { name: "Bypasses verification" });
  await expect(bypass).not.toBeChecked();
  await bypass.click();
  await expect(page.getByText("Flags saved")).toBeVisible();
  await expect(bypass).toBeChecked();
});

test("a pending member completes membership screening", async ({ page, owner }) => {
  const pending = await seedPendingMember(owner);
  await signIn(page, pending);
  await page.goto(`/guilds/${owner.guild.id}/bans`);

  // Until screening is done, moderation is refused with the reason.
  await expect(page.getByText("You can't view bans")).toBeVisible();
  await expect(page.getByText("you have not completed membership screening")).toBeVisible();

  const banner = page.getByRole("alert").filter({ hasText: "Complete membership screening" });
  await expect(banner).toBeVisible();
  await page.getByRole("navigation", { name: "Guild sections" }).getByRole("link", { name: "Members" }).click();
  await expect(memberRow(page, "newcomer")).toContainText("Pending");

  await banner.getByRole("button", { name: "Complete screening" }).click();
  await expect(page.getByText("Screening completed")).toBeVisible();
  await expect(banner).toBeHidden();
  await expect(memberRow(page, "newcomer")).not.toContainText("Pending");
});
