import { execFileSync } from "node:child_process";
import type { APIRequestContext } from "@playwright/test";
import { createApplication, createUser, issueBearerToken } from "~/server/applications/application.service.ts";
import { E2E_DATABASE_URL } from "../e2e-env.ts";
import { expect, pickFromMenu, test } from "../fixtures.ts";
import { e2eDb, uniqueName } from "../seed.ts";

/** The operator CLI against the run's database; answers the line it prints. */
function cli(...args: string[]): string {
  const out = execFileSync("npx", ["tsx", "src/cli/index.ts", ...args], { env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL }, encoding: "utf8" });
  return out.trim().split("\n").at(-1)!;
}

/** A player of the application: a user and the Bearer token their game client got with sdk.social_layer, made with the CLI. */
function cliPlayer(username: string, applicationId: string) {
  const id = cli("user", "create", "--username", username);
  const token = cli("token", "create", "--user", id, "--scopes", "identify sdk.social_layer", "--app", applicationId);
  return { id, auth: { Authorization: `Bearer ${token}` } };
}

test("creates an application, sees its lobby live, opens it and moderates a player's message", async ({ page, signedIn: _signedIn, request }, testInfo) => {
  // The application, made in the dashboard; its bot token is shown once in the create dialog.
  await page.goto("/");
  await pickFromMenu(page, /^Account menu for/, "Applications");
  await page.getByRole("button", { name: "New application" }).click();
  const name = uniqueName("Arena");
  await page.getByRole("dialog", { name: "Create an application" }).getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create application" }).click();
  const reveal = page.getByRole("dialog", { name: `${name} is ready: its bot token` });
  const botToken = await reveal.getByLabel("Bot token").inputValue();
  await reveal.getByRole("button", { name: "I have stored it" }).click();
  await page.getByRole("link", { name }).click();
  await page.getByRole("link", { name: "Lobbies" }).click();
  await page.waitForURL(/\/applications\/\d+\/lobbies$/);
  const applicationId = page.url().split("/").at(-2)!;
  await expect(page.getByText("No live lobbies")).toBeVisible();
  await expect(page.getByText("POST /api/v10/lobbies")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("lobbies-empty.png"), fullPage: true });

  // The game server makes a lobby with the bot token; a player posts in it from their game client.
  const game = { Authorization: `Bot ${botToken}` };
  const player = cliPlayer("arena_player", applicationId);
  const made = await request.post("/api/v10/lobbies", {
    headers: game,
    data: { metadata: { mode: "ranked", map: "harbor" }, members: [{ id: player.id, flags: 1, metadata: { team: "blue" } }], idle_timeout_seconds: 600 },
  });
  expect(made.status()).toBe(200);
  const lobbyId = ((await made.json()) as { id: string }).id;
  const sent = await request.post(`/api/v10/lobbies/${lobbyId}/messages`, {
    headers: player.auth,
    data: { content: "gg, rematch?", metadata: { emote: "wave" } },
  });
  expect(sent.status()).toBe(200);
  const messageId = ((await sent.json()) as { id: string }).id;

  // The open list picks it up by itself.
  const row = page.getByRole("row").filter({ hasText: lobbyId });
  await expect(row).toBeVisible();
  await expect(row).toContainText("mode: ranked");
  await expect(row).toContainText(/in 10 min|in 9 min/);
  await expect(page.getByText("1 live lobby")).toBeVisible();

  await row.getByRole("link", { name: lobbyId }).click();
  await expect(page.getByRole("heading", { name: "Lobby", level: 1 })).toBeVisible();
  const members = page.getByRole("row").filter({ hasText: "@arena_player" });
  await expect(members).toContainText("Can link channel");
  await expect(members).toContainText("team: blue");
  await expect(page.getByText("Not linked.")).toBeVisible();
  const message = page.getByRole("article", { name: "Message from arena_player" });
  await expect(message).toContainText("gg, rematch?");
  await expect(message).toContainText("emote");

  // Moderation metadata: the limits show on the field, then the pairs are saved.
  await message.getByRole("button", { name: "Edit moderation metadata of the message from arena_player" }).click();
  const dialog = page.getByRole("dialog", { name: "Moderation metadata" });
  await dialog.getByLabel("Key").fill("k".repeat(1025));
  await expect(dialog.getByText("At most 1024 characters")).toBeVisible();
  await dialog.getByLabel("Key").fill("verdict");
  await dialog.getByLabel("Value").fill("hidden");
  await dialog.getByRole("button", { name: "Add a pair" }).click();
  await dialog.getByRole("group", { name: "Pair 2" }).getByLabel("Value").fill("no key");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Enter a key for this value")).toBeVisible();
  await dialog.getByRole("group", { name: "Pair 2" }).getByLabel("Key").fill("reason");
  await dialog.getByRole("group", { name: "Pair 2" }).getByLabel("Value").fill("spam");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(message.getByRole("definition").filter({ hasText: "hidden" })).toBeVisible();

  // The players' view over REST, and the update their clients were sent.
  const listed = await request.get(`/api/v10/lobbies/${lobbyId}/messages`, { headers: player.auth });
  expect(((await listed.json()) as { moderation_metadata: unknown }[])[0]!.moderation_metadata).toEqual({ verdict: "hidden", reason: "spam" });
  const update = await e2eDb().event.findFirst({ where: { type: "LOBBY_MESSAGE_UPDATE", data: { contains: messageId } }, orderBy: { seq: "desc" } });
  expect(JSON.parse(update!.data)).toMatchObject({ id: messageId, moderation_metadata: { verdict: "hidden", reason: "spam" } });
  await page.screenshot({ path: testInfo.outputPath("lobby-detail.png"), fullPage: true });

  // Deleting the message and ending the lobby both ask first.
  await message.getByRole("button", { name: "Delete message from arena_player" }).click();
  await page.getByRole("dialog", { name: "Delete message" }).getByRole("button", { name: "Delete message" }).click();
  await expect(message).toBeHidden();
  expect(await (await request.get(`/api/v10/lobbies/${lobbyId}/messages`, { headers: player.auth })).json()).toEqual([]);

  await page.getByRole("button", { name: "End lobby" }).click();
  await page.getByRole("dialog", { name: "End lobby" }).getByRole("button", { name: "End lobby" }).click();
  await page.waitForURL(`/applications/${applicationId}/lobbies`);
  await expect(page.getByText("No live lobbies")).toBeVisible();
  expect((await request.get(`/api/v10/lobbies/${lobbyId}`, { headers: game })).status()).toBe(404);

  await page.goto(`/applications/${applicationId}/lobbies/${lobbyId}`);
  await expect(page.getByRole("heading", { name: "This lobby has ended or does not exist" })).toBeVisible();
});

/** A lobby of `owner`'s new application with `size` members (made as the CLI would) and `messages` messages sent over REST. */
async function seedBusyLobby(request: APIRequestContext, ownerId: string, size: number, messages: number) {
  const db = e2eDb();
  const { application, botToken } = await db.$transaction((tx) => createApplication(tx, { name: uniqueName("Busy game"), ownerId }));
  const players = [];
  for (let i = 0; i < size; i += 1) {
    const user = await createUser(db, { username: `player_${i}`, globalName: i % 3 === 0 ? `Player Number ${i} With A Long Display Name` : null });
    players.push({
      user,
      token: await issueBearerToken({ db, actor: null }, { userId: user.id, applicationId: application.id, scopes: ["sdk.social_layer"] }),
    });
  }
  const game = { Authorization: `Bot ${botToken}` };
  const members = players.map(({ user }, i) => ({
    id: user.id,
    flags: i % 4 === 0 ? 1 : 0,
    ...(i % 2 === 0 && { metadata: { team: i % 4 ? "red" : "blue", elo: String(1000 + i) } }),
  }));
  const made = await request.post("/api/v10/lobbies", {
    headers: game,
    data: { metadata: { mode: "battle royale", map: "harbor", region: "eu-west" }, members: members.slice(0, 25) },
  });
  const lobbyId = ((await made.json()) as { id: string }).id;
  if (members.length > 25) await request.post(`/api/v10/lobbies/${lobbyId}/members/bulk`, { headers: game, data: members.slice(25) });
  for (let i = 0; i < messages; i += 1) {
    const author = players[i % players.length]!;
    const content = i % 5 === 0 ? `A longer message number ${i}: ${"lorem ipsum dolor sit amet ".repeat(8)}` : `message ${i}`;
    const sent = await request.post(`/api/v10/lobbies/${lobbyId}/messages`, { headers: { Authorization: `Bearer ${author.token}` }, data: { content } });
    expect(sent.status()).toBe(200);
    if (i === messages - 1) {
      const id = ((await sent.json()) as { id: string }).id;
      await request.put(`/api/v10/lobbies/${lobbyId}/messages/${id}/moderation-metadata`, {
        headers: game,
        data: { verdict: "flagged", reason: "x".repeat(300) },
      });
    }
  }
  for (let i = 0; i < 3; i += 1) await request.post("/api/v10/lobbies", { headers: game, data: { metadata: { mode: `casual ${i}` } } });
  return { applicationId: application.id, lobbyId };
}

test("shows a busy lobby at desktop and narrow widths", async ({ page, signedIn, request }, testInfo) => {
  const { applicationId, lobbyId } = await seedBusyLobby(request, signedIn.user.id, 30, 55);
  await page.goto(`/applications/${applicationId}/lobbies`);
  await expect(page.getByText("4 live lobbies")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: lobbyId })).toContainText("30");
  await page.screenshot({ path: testInfo.outputPath("lobbies-list.png"), fullPage: true });

  await page.goto(`/applications/${applicationId}/lobbies/${lobbyId}`);
  await expect(page.getByRole("heading", { name: "Members (30)" })).toBeVisible();
  await expect(page.getByText("1–25 of 30")).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(50);
  await page.getByRole("button", { name: "Load older messages" }).click();
  await expect(page.getByRole("article")).toHaveCount(55);
  await page.screenshot({ path: testInfo.outputPath("lobby-busy.png"), fullPage: true });

  await page.setViewportSize({ width: 400, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("lobby-busy-narrow.png"), fullPage: true });
  await page
    .getByRole("article")
    .first()
    .getByRole("button", { name: /^Edit moderation metadata/ })
    .click();
  const dialog = page.getByRole("dialog", { name: "Moderation metadata" });
  await expect(dialog.getByLabel("Value").last()).toHaveValue("x".repeat(300));
  await page.screenshot({ path: testInfo.outputPath("moderation-modal-narrow.png") });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.goto(`/applications/${applicationId}/lobbies`);
  await expect(page.getByRole("row").filter({ hasText: lobbyId })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("lobbies-list-narrow.png"), fullPage: true });
});
