import type { Page } from "@playwright/test";
import { expect, signIn, test } from "../fixtures.ts";
import { e2eDb, seedBan, seedMembers } from "../seed.ts";

const memberRow = (page: Page, username: string) => page.getByRole("row", { name: new RegExp(`@${username}\\b`) });

test("a moderator finds a member by part of their name", async ({ page, owner }) => {
  const [otter] = await seedMembers(owner.guild.id, ["brave_otter", "quiet_falcon"]);
  await e2eDb().user.update({ where: { id: otter!.id }, data: { globalName: "Captain Otterly" } });
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/members`);
  await expect(memberRow(page, "quiet_falcon")).toBeVisible();

  // Words from the middle of a name, in any case, find the member.
  const box = page.getByLabel("Search members");
  await box.fill("OTTERLY capt");
  await expect(memberRow(page, "brave_otter")).toBeVisible();
  await expect(memberRow(page, "quiet_falcon")).toHaveCount(0);
  await box.fill("alco");
  await expect(memberRow(page, "quiet_falcon")).toBeVisible();
  await expect(memberRow(page, "brave_otter")).toHaveCount(0);
  await box.fill(otter!.id);
  await expect(memberRow(page, "brave_otter")).toBeVisible();

  // Nobody matches: the page says what was searched and offers to clear it.
  await box.fill("xyz");
  await expect(page.getByRole("row", { name: /@/ })).toHaveCount(0);
  await expect(page.getByText("No members match “xyz”")).toBeVisible();
  await expect(page.getByText("Try part of a name or an id.")).toBeVisible();
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(box).toHaveValue("");
  await expect(memberRow(page, "brave_otter")).toBeVisible();
  await expect(memberRow(page, "quiet_falcon")).toBeVisible();
});

test("a moderator finds a ban by part of the banned user's name", async ({ page, owner }) => {
  const [raider] = await seedMembers(owner.guild.id, ["raid_leader"]);
  await seedBan(owner, raider!.id);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/bans`);
  const box = page.getByLabel("Search bans");
  await box.fill("LEADER");
  await expect(page.getByRole("row", { name: /raid_leader/ })).toBeVisible();
  await box.fill("nobody");
  await expect(page.getByRole("row", { name: /raid_leader/ })).toHaveCount(0);
  await expect(page.getByText("No bans match “nobody”")).toBeVisible();
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(page.getByRole("row", { name: /raid_leader/ })).toBeVisible();
});
