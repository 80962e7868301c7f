import { ChannelType, GatewayDispatchEvents, GuildFeature } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createGuildChannel } from "~/server/channels/create-channel.service.ts";
import { runChange } from "~/server/events/change.ts";
import { GUILD_OBJECT_INCLUDE, toGuildObject } from "~/server/guilds/guild.dto.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { createWebhook } from "~/server/webhooks/webhook.service.ts";
import { executeWebhook } from "~/server/webhooks/webhook-execute.service.ts";
import { expect, test } from "../fixtures.ts";
import { e2eDb, uniqueName } from "../seed.ts";

test("follows an announcement channel into another guild's channel, then publishes a message there from the Messages view", async ({ page, signedIn }) => {
  const db = e2eDb();
  const ctx = { db, actor: dashboardActor(signedIn.user.id) };
  // Announcement channels come with NEWS, the platform's to give: an operator's write with its Guild Update.
  await runChange({ db, actor: null }, async ({ tx, emit }) => {
    const guild = await tx.guild.update({
      where: { id: signedIn.guild.id },
      data: { features: JSON.stringify([GuildFeature.News]) },
      include: GUILD_OBJECT_INCLUDE,
    });
    await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(guild, guild.roles, guild));
  });
  const news = await createGuildChannel(ctx, { guildId: signedIn.guild.id, body: { name: "news", type: ChannelType.GuildAnnouncement } });
  const other = await createGuild(ctx, { name: uniqueName("Readers") });
  const general = await db.channel.findFirstOrThrow({ where: { guildId: other.id, type: ChannelType.GuildText } });
  // A release announcement posted by a service through a webhook of #news.
  const hook = await createWebhook(ctx, { channelId: news.id, body: { name: "Release bot" } });
  await executeWebhook(db, { webhookId: hook.id, token: hook.token!, query: { wait: true }, body: { content: "Version 2.0 is out" }, files: [] });

  await page.goto(`/guilds/${signedIn.guild.id}/channels/${news.id}/webhooks`);
  await expect(page.getByRole("heading", { name: "Webhooks of #news" })).toBeVisible();
  await page.getByRole("button", { name: "Follow into…" }).click();
  const dialog = page.getByRole("dialog", { name: "Follow #news" });
  await dialog.getByRole("combobox", { name: "Post into" }).click();
  // Both guilds have a #general: the choices are grouped by guild.
  await page
    .getByRole("group", { name: other.name })
    .getByRole("option", { name: `#${general.name}` })
    .click();
  await dialog.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(dialog).toBeHidden();

  // The other guild's channel holds the follower webhook, named after this guild and channel.
  await page.goto(`/guilds/${other.id}/channels/${general.id}/webhooks`);
  const follower = page.getByRole("row", { name: new RegExp(`${signedIn.guild.name} #news`) });
  await expect(follower).toContainText(`Follows #news of ${signedIn.guild.name}`);
  await expect(follower.getByRole("button", { name: /Copy the URL/ })).toHaveCount(0);

  // Published from the Messages view, the announcement reaches the follower.
  await page.goto(`/guilds/${signedIn.guild.id}/channels/${news.id}/messages`);
  const announcement = page.getByRole("article", { name: "Message from Release bot" });
  await announcement.getByRole("button", { name: "Publish message from Release bot" }).click();
  await expect(announcement.getByText("Published", { exact: true })).toBeVisible();
  await expect(announcement.getByRole("button", { name: /Publish message/ })).toHaveCount(0);

  await page.goto(`/guilds/${other.id}/channels/${general.id}/messages`);
  const copy = page.getByRole("article", { name: `Message from ${signedIn.guild.name} #news` });
  await expect(copy).toContainText("Version 2.0 is out");
  await expect(copy.getByText("Followed", { exact: true })).toBeVisible();
});
