import { expect, test } from "../fixtures.ts";
import { seedWebhook } from "../seed.ts";

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
