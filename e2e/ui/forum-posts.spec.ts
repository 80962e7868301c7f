import { ChannelType } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createGuildChannel } from "~/server/channels/create-channel.service.ts";
import { expect, test } from "../fixtures.ts";
import { e2eDb } from "../seed.ts";

test("starts a post in a forum with a tag, shows it under the forum, and reads its first message", async ({ page, signedIn }) => {
  await createGuildChannel(
    { db: e2eDb(), actor: dashboardActor(signedIn.user.id) },
    {
      guildId: signedIn.guild.id,
      body: { name: "help-desk", type: ChannelType.GuildForum, available_tags: [{ name: "question" }, { name: "solved", moderated: true }] },
    },
  );
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("button", { name: "New post in help-desk" }).click();
  const dialog = page.getByRole("dialog", { name: "New post" });
  await dialog.getByLabel("Title").fill("Printer on fire");
  await dialog.getByLabel("Message").fill("It started after the update. Ideas?");
  await dialog.getByLabel("Tags").click();
  await page.getByRole("option", { name: "question" }).click();
  // Closes the tag list, which would cover the buttons.
  await dialog.getByLabel("Title").click();
  await dialog.getByRole("button", { name: "Post" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Post created")).toBeVisible();

  const forum = page.getByRole("listitem", { name: "help-desk", exact: true });
  const post = forum.getByRole("list", { name: "Threads in help-desk" }).getByRole("listitem", { name: "Printer on fire" });
  await expect(post).toContainText("Post");
  await expect(post).toContainText("question");

  await post.getByRole("link", { name: "Messages in Printer on fire" }).click();
  await expect(page.getByRole("heading", { name: "Messages in Printer on fire" })).toBeVisible();
  await expect(page.getByRole("article").first()).toContainText("It started after the update. Ideas?");
  // A forum holds no messages of its own: the way back is the Channels page.
  await page.getByRole("main").getByRole("link", { name: "Channels", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Channels" })).toBeVisible();
});
