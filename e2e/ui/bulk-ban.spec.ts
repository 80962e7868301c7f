import { ChannelType } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { sendMessage } from "~/server/messages/message.service.ts";
import { ZCreateMessageBodySchema } from "~/server/messages/message.schema.ts";
import { expect, signIn, test } from "../fixtures.ts";
import { e2eDb, seedMembers } from "../seed.ts";

test("a bulk ban deletes the last hour of messages", async ({ page, owner }) => {
  const db = e2eDb();
  const [spamOne, spamTwo, regular] = await seedMembers(owner.guild.id, ["spam_one", "spam_two", "regular"]);
  const general = await db.channel.findFirstOrThrow({ where: { guildId: owner.guild.id, type: ChannelType.GuildText, name: "general" } });
  const posts = [
    [spamOne!, "Cheap gold, click here"],
    [spamTwo!, "Even cheaper gold"],
    [regular!, "Good morning everyone"],
  ] as const;
  for (const [user, content] of posts) {
    await sendMessage({ db, actor: dashboardActor(user.id) }, { channelId: general.id, body: ZCreateMessageBodySchema.parse({ content }), files: [] });
  }
  await signIn(page, owner);
  const messagesPage = `/guilds/${owner.guild.id}/channels/${general.id}/messages`;
  await page.goto(messagesPage);
  await expect(page.getByRole("feed", { name: "Messages" }).getByRole("article")).toHaveCount(3);

  await page.goto(`/guilds/${owner.guild.id}/members`);
  await page.getByLabel("Search members").fill("spam");
  await page.getByRole("checkbox", { name: "Select spam_one" }).check();
  await page.getByRole("checkbox", { name: "Select spam_two" }).check();
  await page.getByRole("button", { name: "Ban selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Ban selected members" });
  await dialog.getByLabel("Delete message history").click();
  await page.getByRole("option", { name: "Previous hour" }).click();
  await dialog.getByRole("button", { name: "Ban 2 members" }).click();
  await expect(dialog).toContainText("Banned 2 of 2");
  await dialog.getByRole("button", { name: "Done" }).click();

  // Their messages of the last hour are gone; the member who stays keeps theirs.
  await page.goto(messagesPage);
  const feed = page.getByRole("feed", { name: "Messages" });
  await expect(feed.getByRole("article", { name: "Message from regular" })).toContainText("Good morning everyone");
  await expect(feed.getByRole("article")).toHaveCount(1);
  await expect(page.getByText("cheap gold", { exact: false })).toHaveCount(0);
});
