import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Page } from "@playwright/test";
import { dashboardActor } from "~/server/auth/actor.ts";
import { sendMessage } from "~/server/messages/message.service.ts";
import { DEFAULT_EVERYONE_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { addOwnReaction } from "~/server/reactions/reactions.service.ts";
import { modifyRole } from "~/server/roles/role.service.ts";
import { clickUntilShown, expect, pickFromMenu, signIn, test, type Owner } from "../fixtures.ts";
import { e2eDb, seedMemberWithRoles, seedRolesAt, seedWebhook } from "../seed.ts";

test("a webhook's message shows in the channel's Messages view as readers see it, edited, then deleted after confirming", async ({
  page,
  signedIn,
  request,
}) => {
  // A webhook made in the dashboard, its URL read from the page.
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("link", { name: "Webhooks of general", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Webhooks of #general" })).toBeVisible();
  const channelId = /\/channels\/(\d+)\/webhooks/.exec(page.url())![1]!;
  await page.getByRole("button", { name: "Create webhook" }).click();
  const create = page.getByRole("dialog", { name: "Create webhook" });
  await create.getByLabel("Name").fill("Deploy notices");
  await create.getByRole("button", { name: "Create webhook" }).click();
  await expect(create).toBeHidden();
  await page.getByRole("button", { name: "Edit Deploy notices" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Deploy notices" });
  await edit.getByRole("button", { name: "Show or hide the URL" }).click();
  const url = await edit.getByLabel("Webhook URL").inputValue();
  await edit.getByRole("button", { name: "Cancel" }).click();

  // A service posts through the URL alone, as curl would.
  const posted = await request.post(`${url}?wait=true`, {
    data: {
      content: `Deployed to <#${channelId}> by **CI**`,
      embeds: [{ title: "Release 1.2", description: "Webhooks and messages", color: 0x2ecc71, fields: [{ name: "Status", value: "green", inline: true }] }],
    },
  });
  expect(posted.status()).toBe(200);
  const { id: messageId } = (await posted.json()) as { id: string };

  // The channel row links to the Messages view, which renders the message.
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("link", { name: "Messages in general", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Messages in #general" })).toBeVisible();
  const message = page.getByRole("article", { name: "Message from Deploy notices" });
  await expect(message).toContainText("Deployed to #general by CI");
  await expect(message.locator("strong")).toHaveText("CI");
  await expect(message.getByText("App", { exact: true })).toBeVisible();
  await expect(message.getByTestId("message-embed")).toContainText("Release 1.2");
  await expect(message.getByTestId("message-embed")).toContainText("Status");
  await expect(message.getByText("(edited)")).toBeHidden();

  // Edited through the webhook's token, the message says so after a reload.
  const edited = await request.patch(`${url}/messages/${messageId}`, { data: { content: `Deployed to <#${channelId}> by **CI**, rolled out` } });
  expect(edited.status()).toBe(200);
  await page.reload();
  await expect(message).toContainText("rolled out");
  await expect(message.getByText("(edited)")).toBeVisible();

  // Deleted after confirming, with a reason for the audit log.
  await message.getByRole("button", { name: "Delete message from Deploy notices" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete message" });
  await expect(confirm).toContainText("rolled out");
  await confirm.getByLabel("Reason").fill("Posted by mistake");
  await confirm.getByRole("button", { name: "Delete message" }).click();
  await expect(confirm).toBeHidden();
  await expect(message).toBeHidden();
  await expect(page.getByText("No messages yet")).toBeVisible();
  expect((await request.get(`${url}/messages/${messageId}`)).status()).toBe(404);
});

test("searching a channel's messages shows the ones that say it, and says so when none do", async ({ page, signedIn, request }) => {
  const { channel, path } = await seedWebhook(signedIn, "Status page");
  for (const content of ["Database failover finished", "Cache warmed up", "Second failover drill passed"]) {
    expect((await request.post(`${path}?wait=true`, { data: { content } })).status()).toBe(200);
  }
  await page.goto(`/guilds/${signedIn.guild.id}/channels/${channel.id}/messages`);
  await expect(page.getByRole("article", { name: "Message from Status page" })).toHaveCount(3);

  const box = page.getByRole("textbox", { name: "Search this channel's messages" });
  await box.fill("failover");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText("2 messages match “failover”")).toBeVisible();
  const results = page.getByRole("feed", { name: "Search results" });
  await expect(results.getByRole("article")).toHaveCount(2);
  await expect(results).toContainText("Database failover finished");
  await expect(results).not.toContainText("Cache warmed up");

  await box.fill("earthquake");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText("No messages match")).toBeVisible();

  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page.getByRole("feed", { name: "Messages" }).getByRole("article")).toHaveCount(3);
});

/** The owner's #general, and a moderator there: their role manages and pins messages (Send messages and threads come with @everyone). */
async function moderatedGeneral(owner: Owner) {
  const general = await e2eDb().channel.findFirstOrThrow({ where: { guildId: owner.guild.id, type: ChannelType.GuildText, name: "general" } });
  const [moderators] = await seedRolesAt(owner.guild.id, [{ name: "Moderators", position: 1, permissions: P.ManageMessages | P.PinMessages }]);
  const moderator = await seedMemberWithRoles(owner, "moderator", [moderators!.id]);
  return { general, moderator };
}

const messageFrom = (page: Page, author: string, text: string) =>
  page
    .getByRole("feed", { name: "Messages" })
    .getByRole("article", { name: `Message from ${author}` })
    .filter({ hasText: text });

test("a moderator posts with a file, reacts, pins, starts a thread, replies and edits the reply", async ({ page, owner }) => {
  const { general, moderator } = await moderatedGeneral(owner);
  await signIn(page, moderator);
  await page.goto(`/guilds/${owner.guild.id}/channels/${general.id}/messages`);
  await expect(page.getByText("No messages yet")).toBeVisible();

  const box = page.getByRole("textbox", { name: "Message #general" });
  await box.fill("Deploy at 5pm, plan attached");
  await page.getByLabel("Files to attach").setInputFiles({ name: "plan.txt", mimeType: "text/plain", buffer: Buffer.from("1. build\n2. ship\n") });
  await expect(page.getByRole("list", { name: "Files to send" })).toContainText("plan.txt");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const posted = messageFrom(page, "moderator", "Deploy at 5pm");
  await expect(posted).toContainText("plan.txt");
  await expect(box).toHaveValue("");

  await clickUntilShown(
    posted.getByRole("button", { name: "Add a reaction to the message from moderator" }),
    page.getByRole("button", { name: "React with 👍" }),
  );
  await page.getByRole("button", { name: "React with 👍" }).click();
  await expect(posted.getByRole("button", { name: "👍: 1 reaction, including yours" })).toHaveAttribute("aria-pressed", "true");

  await pickFromMenu(page, "More actions for the message from moderator", "Pin message");
  await expect(posted.getByText("Pinned", { exact: true })).toBeVisible();
  await expect(page.getByText("moderator pinned a message to this channel.")).toBeVisible();

  await pickFromMenu(page, "More actions for the message from moderator", "Start a thread");
  const thread = page.getByRole("dialog", { name: "Start a thread" });
  await thread.getByRole("textbox", { name: "Thread name" }).fill("Deploy plan");
  await thread.getByRole("button", { name: "Start thread" }).click();
  await expect(thread).toBeHidden();
  await expect(posted.getByRole("link", { name: "Thread: Deploy plan" })).toBeVisible();

  await posted.getByRole("button", { name: "Reply to moderator" }).click();
  await expect(page.getByRole("form", { name: "Post a message" })).toContainText("Replying to moderator");
  await box.fill("Confirmed");
  await box.press("Enter");
  const reply = messageFrom(page, "moderator", "Confirmed");
  await expect(reply).toContainText("Replying to moderator: Deploy at 5pm");

  await reply.getByRole("button", { name: "Edit your message" }).click();
  const edit = reply.getByRole("textbox", { name: "Edit the message" });
  await edit.fill("Confirmed, all green");
  await edit.press("Enter");
  await expect(reply).toContainText("Confirmed, all green");
  await expect(reply.getByText("(edited)")).toBeVisible();
});

test("another member's message and reaction appear without a reload", async ({ page, owner }) => {
  const { general, moderator } = await moderatedGeneral(owner);
  const watcher = await seedMemberWithRoles(owner, "watcher", []);
  const asWatcher = { db: e2eDb(), actor: dashboardActor(watcher.user.id) };
  const first = await sendMessage(asWatcher, { channelId: general.id, body: { content: "Anyone around?" }, files: [] });
  await signIn(page, moderator);
  // The server hears of the changes made here through its outbox within a second.
  await expect(async () => {
    await page.goto(`/guilds/${owner.guild.id}/channels/${general.id}/messages`);
    await expect(messageFrom(page, "watcher", "Anyone around?")).toBeVisible({ timeout: 2000 });
  }).toPass();

  await sendMessage(asWatcher, { channelId: general.id, body: { content: "Deploy looks good" }, files: [] });
  await expect(messageFrom(page, "watcher", "Deploy looks good")).toBeVisible();
  await addOwnReaction(asWatcher, { channelId: general.id, messageId: first.id, emoji: "🎉" });
  await expect(messageFrom(page, "watcher", "Anyone around?").getByRole("button", { name: "🎉: 1 reaction" })).toHaveAttribute("aria-pressed", "false");
});

test("a member without Send Messages sees why they cannot post", async ({ page, owner }) => {
  const ctx = { db: e2eDb(), actor: dashboardActor(owner.user.id) };
  await modifyRole(ctx, { guildId: owner.guild.id, roleId: owner.guild.id, body: { permissions: String(DEFAULT_EVERYONE_PERMISSIONS & ~P.SendMessages) } });
  const { general } = await moderatedGeneral(owner);
  await sendMessage(ctx, { channelId: general.id, body: { content: "Welcome, read the rules" }, files: [] });
  const member = await seedMemberWithRoles(owner, "newcomer", []);
  await signIn(page, member);

  const refusal = page.getByRole("alert").filter({ hasText: "You can't send messages here" });
  // The server hears of the changes made here through its outbox within a second.
  await expect(async () => {
    await page.goto(`/guilds/${owner.guild.id}/channels/${general.id}/messages`);
    await expect(refusal).toBeVisible({ timeout: 2000 });
  }).toPass();
  await expect(refusal).toContainText("Needs Send messages in this channel.");
  await expect(page.getByRole("textbox", { name: "Message #general" })).toBeHidden();
  await expect(
    messageFrom(page, "E2E Owner", "Welcome, read the rules").getByRole("button", { name: "Reply to E2E Owner (Needs Send messages in this channel.)" }),
  ).toBeDisabled();
});
