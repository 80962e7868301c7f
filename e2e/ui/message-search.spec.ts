import { expect, test } from "../fixtures.ts";
import { seedWebhook } from "../seed.ts";

test("searching the guild's messages from the Channels page shows each hit with its channel, and says so when nothing matches", async ({
  page,
  signedIn,
  request,
}) => {
  const { channel, path } = await seedWebhook(signedIn, "Status page");
  for (const content of ["Database failover finished", "Cache warmed up", "Second failover drill passed"]) {
    expect((await request.post(`${path}?wait=true`, { data: { content } })).status()).toBe(200);
  }
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("link", { name: "Search messages" }).click();
  await expect(page.getByRole("heading", { name: "Search messages" })).toBeVisible();

  const form = page.getByRole("search", { name: "Search messages" });
  await form.getByRole("textbox", { name: "Words" }).fill("failover");
  await form.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("2 messages match “failover”")).toBeVisible();
  const results = page.getByRole("feed", { name: "Search results" });
  await expect(results.getByRole("article", { name: "Message from Status page" })).toHaveCount(2);
  await expect(results).toContainText("Database failover finished");
  await expect(results).not.toContainText("Cache warmed up");
  const channelLinks = results.getByRole("link", { name: channel.name, exact: true });
  await expect(channelLinks).toHaveCount(2);

  await form.getByRole("textbox", { name: "Words" }).fill("earthquake");
  await form.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No messages match")).toBeVisible();
  await expect(page.getByText("Nothing in the channels you can read says “earthquake”.")).toBeVisible();

  // A hit's channel leads to that channel's Messages view.
  await form.getByRole("textbox", { name: "Words" }).fill("drill");
  await form.getByRole("button", { name: "Search" }).click();
  await results.getByRole("link", { name: channel.name, exact: true }).click();
  await page.waitForURL(`/guilds/${signedIn.guild.id}/channels/${channel.id}/messages`);
  await expect(page.getByRole("feed", { name: "Messages" }).getByRole("article")).toHaveCount(3);
});
