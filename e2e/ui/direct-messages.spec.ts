import type { Actor } from "~/server/auth/actor.ts";
import { openDm } from "~/server/dms/dm.service.ts";
import { sendMessage } from "~/server/messages/message.service.ts";
import { expect, pickFromMenu, test } from "../fixtures.ts";
import { e2eDb, seedBotWithRole } from "../seed.ts";

test("reads a bot's direct message and answers it from the account menu", async ({ page, signedIn }, testInfo) => {
  await page.goto("/account/messages");
  await expect(page.getByText("No direct messages")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("direct-messages-empty.png"), fullPage: true });

  const { application, botUser } = await seedBotWithRole(signedIn);
  const actor: Actor = { kind: "bot", userId: botUser.id, applicationId: application.id, scopes: new Set() };
  const dm = await openDm({ db: e2eDb(), actor }, { recipient_id: signedIn.user.id });
  await sendMessage({ db: e2eDb(), actor }, { channelId: dm.id, body: { content: "Welcome! Please read the rules, then say done." }, files: [] });

  await page.goto("/");
  await pickFromMenu(page, /^Account menu for/, "Direct messages");
  await page.waitForURL(/\/account\/messages$/);
  const conversation = page.getByRole("region", { name: /^Conversation with / });
  await expect(conversation.getByRole("article", { name: /^Message from / }).first()).toContainText("Please read the rules");

  await conversation.getByRole("textbox", { name: /^Message / }).fill("done");
  await conversation.getByRole("button", { name: "Send" }).click();
  await expect(conversation.getByRole("article", { name: /^Message from / }).last()).toContainText("done");
  await expect.poll(async () => (await e2eDb().message.findFirst({ where: { channelId: dm.id, authorId: signedIn.user.id } }))?.content).toBe("done");
  await page.screenshot({ path: testInfo.outputPath("direct-messages.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(conversation.getByRole("button", { name: "Send" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("direct-messages-narrow.png"), fullPage: true });
});
