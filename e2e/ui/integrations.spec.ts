import { addGuildMember } from "~/server/members/member.service.ts";
import { expect, signIn, test } from "../fixtures.ts";
import { e2eDb, seedGuest, seedIntegrations } from "../seed.ts";

test("lists the guild's integrations and removes a bot after saying what removal does", async ({ page, owner }) => {
  const { application, botUser } = await seedIntegrations(owner);
  await signIn(page, owner);
  await page.goto(`/guilds/${owner.guild.id}`);
  await page.getByRole("link", { name: "Integrations" }).click();
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
  const botRow = page.getByRole("row", { name: new RegExp(application.name) });
  await expect(botRow).toContainText("Bot");
  await expect(botRow).toContainText("Added by E2E Owner");
  await expect(page.getByRole("row", { name: /Owner Streams/ })).toContainText("Twitch");

  await page.getByRole("button", { name: `Remove ${application.name}` }).click();
  const confirm = page.getByRole("dialog", { name: "Remove integration" });
  await expect(confirm).toContainText(`The bot ${botUser.username} is kicked from the guild.`);
  await expect(confirm).toContainText("The webhooks it created are deleted.");
  await confirm.getByLabel("Reason").fill("No longer used");
  await confirm.getByRole("button", { name: "Remove integration" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("Integration removed")).toBeVisible();
  await expect(botRow).toHaveCount(0);
  await expect(page.getByRole("row", { name: /Owner Streams/ })).toBeVisible();
  expect(await e2eDb().member.findUnique({ where: { guildId_userId: { guildId: owner.guild.id, userId: botUser.id } } })).toBeNull();

  // The stream's confirmation names its managed role.
  await page.getByRole("button", { name: "Remove Owner Streams" }).click();
  const streamConfirm = page.getByRole("dialog", { name: "Remove integration" });
  await expect(streamConfirm).toContainText('Its managed role "Twitch Subscriber" is deleted');
  await streamConfirm.getByRole("button", { name: "Remove integration" }).click();
  await expect(page.getByText("No integrations yet")).toBeVisible();
});

test("a member without Manage Guild sees why the list is closed", async ({ page, owner }) => {
  const guest = await seedGuest("member");
  await addGuildMember({ db: e2eDb(), actor: null }, { guildId: owner.guild.id, userId: guest.user.id });
  await signIn(page, guest);
  await page.goto(`/guilds/${owner.guild.id}/integrations`);
  await expect(page.getByText("You can't view this guild's integrations")).toBeVisible();
  await expect(page.getByText("Needs Manage guild.")).toBeVisible();
});
