import { expect, pickFromMenu, signIn, test } from "../fixtures.ts";
import { seedBan, seedInvite, seedMembers } from "../seed.ts";

test.use({ viewport: { width: 390, height: 844 } });

test("on a phone the member actions are visible", async ({ page, owner }) => {
  await seedMembers(owner.guild.id, ["phone_member"]);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}/members`);
  const actions = page.getByRole("button", { name: "Actions for phone_member" });
  // In view as the page loads, without scrolling the table sideways.
  await expect(actions).toBeInViewport();
  const box = await actions.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await pickFromMenu(page, "Actions for phone_member", "Kick");
  await expect(page.getByRole("dialog", { name: "Kick member" })).toBeVisible();
});

test("on a phone the unban and invite actions are visible", async ({ page, owner }) => {
  const [banned] = await seedMembers(owner.guild.id, ["phone_raider"]);
  await seedBan(owner, banned!.id);
  const invite = await seedInvite(owner);
  await signIn(page, owner);

  await page.goto(`/guilds/${owner.guild.id}/bans`);
  await expect(page.getByRole("button", { name: "Unban phone_raider" })).toBeInViewport();

  await page.goto(`/guilds/${owner.guild.id}/invites`);
  const card = page.getByRole("listitem", { name: `Invite ${invite.code}` });
  await expect(card).toContainText("#general");
  for (const name of [`Target users of ${invite.code}`, `Revoke ${invite.code}`]) {
    const button = card.getByRole("button", { name });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport();
  }
});
