import type { Page } from "@playwright/test";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { modifyRole } from "~/server/roles/role.service.ts";
import { expect, pickFromMenu, signIn, test } from "../fixtures.ts";
import { e2eDb, seedBan, seedMembers, seedMemberWithRoles, seedRole, seedRolesAt } from "../seed.ts";

const entries = (page: Page) => page.getByRole("list", { name: "Audit log entries" }).getByRole("listitem");
const entry = (page: Page, sentence: RegExp) => entries(page).filter({ hasText: sentence });

async function pick(page: Page, label: string, option: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test("a moderator reads who banned whom and why", async ({ page, owner }) => {
  const [moderators] = await seedRolesAt(owner.guild.id, [
    { name: "Moderators", position: 1, permissions: P.ViewAuditLog | P.BanMembers | P.KickMembers | P.ModerateMembers },
  ]);
  const banning = await seedMemberWithRoles(owner, "mod_ash", [moderators!.id]);
  const reading = await seedMemberWithRoles(owner, "mod_birch", [moderators!.id]);
  const [, heron] = await seedMembers(owner.guild.id, ["silver_otter", "quiet_heron"]);
  // The owner's own doings, which the filters leave out.
  await seedRole(owner, "Regulars");
  await seedBan(owner, heron!.id);

  // One moderator bans a member from the Members page, with a reason.
  await signIn(page, banning);
  await page.goto(`/guilds/${owner.guild.id}/members`);
  await pickFromMenu(page, "Actions for silver_otter", "Ban");
  const confirm = page.getByRole("dialog", { name: "Ban member" });
  await confirm.getByLabel("Reason").fill("Posting scam links");
  await confirm.getByRole("button", { name: "Ban silver_otter" }).click();
  await expect(confirm).toBeHidden();

  // Another moderator reads the log: who banned whom, and why.
  await page.context().clearCookies();
  await signIn(page, reading);
  await page.goto(`/guilds/${owner.guild.id}/audit-log`);
  const ban = entry(page, /mod_ash banned silver_otter/);
  await expect(ban).toContainText("mod_ash banned silver_otter — Posting scam links");
  await expect(ban).toContainText("Member banned");
  // The banned user is on the Bans page now, and the name leads there.
  await expect(ban.getByRole("link", { name: "silver_otter" })).toHaveAttribute("href", `/guilds/${owner.guild.id}/bans`);

  await ban.getByRole("button", { name: "Show details" }).click();
  await expect(ban.getByRole("button", { name: "Hide details" })).toHaveAttribute("aria-expanded", "true");
  await expect(ban).toContainText("ReasonPosting scam links");
  await expect(ban.getByRole("button", { name: "Copy target id" })).toBeVisible();

  // Only what mod_ash did: the ban, and none of the owner's setup.
  await pick(page, "Done by", "mod_ash");
  await expect(entries(page)).toHaveCount(1);
  await expect(page).toHaveURL(/user=\d+/);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(entries(page)).toHaveCount(3);

  // Only what happened to silver_otter, and the link keeps the filter.
  await pick(page, "Target", "silver_otter");
  await expect(entries(page)).toHaveCount(1);
  await expect(entries(page).first()).toContainText("banned silver_otter");
  await page.reload();
  await expect(entries(page)).toHaveCount(1);
  await expect(page.getByRole("combobox", { name: "Target" })).toHaveValue("silver_otter");
});

test("a timeout reads as its length and a role change as the permissions it granted", async ({ page, owner }) => {
  const [helpers] = await seedRolesAt(owner.guild.id, [{ name: "Helpers", position: 1, permissions: P.ViewChannel }]);
  await seedMembers(owner.guild.id, ["gentle_otter"]);
  await modifyRole(
    { db: e2eDb(), actor: dashboardActor(owner.user.id) },
    { guildId: owner.guild.id, roleId: helpers!.id, body: { permissions: String(P.ViewChannel | P.ManageEvents | P.KickMembers) } },
  );

  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/members`);
  await pickFromMenu(page, "Actions for gentle_otter", "Time out");
  const dialog = page.getByRole("dialog", { name: "Time out member" });
  await dialog.getByText("1 hour", { exact: true }).click();
  await dialog.getByRole("button", { name: "Time out" }).click();
  await expect(dialog).toBeHidden();

  await page.goto(`/guilds/${owner.guild.id}/audit-log`);
  const timeout = entry(page, /timed out gentle_otter/);
  await expect(timeout).toContainText("E2E Owner timed out gentle_otter for 1 hour");
  await expect(timeout).toContainText("Member timed out");
  await timeout.getByRole("button", { name: "Show details" }).click();
  await expect(timeout).toContainText(/Timeoutnone → until .+ \(1 hour\)/);

  const grant = entry(page, /granted/);
  await expect(grant).toContainText("E2E Owner granted Kick members, Manage events to Helpers");
  await expect(grant.getByRole("link", { name: "Helpers" })).toHaveAttribute("href", `/guilds/${owner.guild.id}/roles`);
});
