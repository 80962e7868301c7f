import { expect, test } from "../fixtures.ts";

test("creates a webhook for a channel, reveals and uses its URL, then deletes it after confirming", async ({ page, signedIn, request }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("link", { name: "Webhooks of general", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Webhooks of #general" })).toBeVisible();
  await expect(page.getByText("No webhooks yet")).toBeVisible();

  await page.getByRole("button", { name: "Create webhook" }).click();
  const create = page.getByRole("dialog", { name: "Create webhook" });
  await create.getByLabel("Name").fill("My Discord bot");
  await create.getByRole("button", { name: "Create webhook" }).click();
  await expect(create.getByText('Username cannot contain "discord"')).toBeVisible();
  await create.getByLabel("Name").fill("Deploy notices");
  await create.getByRole("button", { name: "Create webhook" }).click();
  await expect(create).toBeHidden();
  const row = page.getByRole("row", { name: /Deploy notices/ });
  await expect(row).toContainText("E2E Owner");
  await expect(row.getByRole("button", { name: "Copy the URL of Deploy notices" })).toBeVisible();

  // The URL is hidden in the edit dialog until asked for; shown, it answers the webhook without credentials.
  await row.getByRole("button", { name: "Edit Deploy notices" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Deploy notices" });
  const urlField = edit.getByLabel("Webhook URL");
  await expect(urlField).toHaveAttribute("type", "password");
  await edit.getByRole("button", { name: "Show or hide the URL" }).click();
  await expect(urlField).toHaveAttribute("type", "text");
  const url = await urlField.inputValue();
  expect(url).toMatch(/\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{68}$/);
  await edit.getByRole("button", { name: "Cancel" }).click();

  // A service posts with the URL alone, as curl would.
  const posted = await request.post(`${url}?wait=true`, { data: { content: "Release 1.2 is live", embeds: [{ title: "Changelog" }] } });
  expect(posted.status()).toBe(200);
  const message = (await posted.json()) as { content: string; author: { username: string } };
  expect(message).toMatchObject({ content: "Release 1.2 is live", author: { username: "Deploy notices" } });

  // The dashboard's own test message shows what was posted.
  await row.getByRole("button", { name: "Send a test message with Deploy notices" }).click();
  const tester = page.getByRole("dialog", { name: "Send a test message" });
  await tester.getByLabel("Content").fill("Hello from the dashboard");
  await tester.getByLabel("Embed title").fill("Health");
  await tester.getByRole("button", { name: "Send", exact: true }).click();
  const shown = tester.getByLabel("Posted message");
  await expect(shown).toContainText("Hello from the dashboard");
  await expect(shown).toContainText("Health");
  await tester.getByRole("button", { name: "Close", exact: true }).click();

  await row.getByRole("button", { name: "Delete Deploy notices" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete webhook" });
  await confirm.getByLabel("Reason").fill("Replaced by the new pipeline");
  await confirm.getByRole("button", { name: "Delete Deploy notices" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toBeHidden();
  expect((await request.get(url)).status()).toBe(404);
});
