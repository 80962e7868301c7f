import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { createApplication, createUser, issueBearerToken } from "~/server/applications/application.service.ts";
import { addGuildMember } from "~/server/members/member.service.ts";
import { expect, pickFromMenu, signIn, test, type Owner } from "../fixtures.ts";
import { e2eDb, seedChannel, seedMembers, seedMemberWithRoles, seedRole, seedRolesAt, uniqueName } from "../seed.ts";

// Two people on one guild, each in a browser of their own: what one changes shows in the other
// without a reload, and so does what a bot changes over REST; a channel one of them cannot view
// tells them nothing, not even over the stream.

type Recorded = { liveMessages: string[]; dropLiveStreams: () => void };

/**
 * Records every message the page's live streams receive, to tell what reached the browser at
 * all; and drops them as a lost network does (the browser's offline mode spares connections to
 * this machine), the connection failing for good.
 */
const RECORD_STREAM = () => {
  const received: string[] = [];
  const open: EventSource[] = [];
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      open.push(this);
      this.addEventListener("message", (event) => received.push(String(event.data)));
    }
  };
  const recorded: Recorded = {
    liveMessages: received,
    dropLiveStreams() {
      for (const source of open.splice(0)) {
        source.close();
        source.dispatchEvent(new Event("error"));
      }
    },
  };
  Object.assign(window, recorded);
};

async function browserFor(browser: Browser, account: { email: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await context.addInitScript(RECORD_STREAM);
  const page = await context.newPage();
  await signIn(page, account);
  return { context, page };
}

const memberRow = (page: Page, username: string) => page.getByRole("row", { name: new RegExp(`@${username}\\b`) });
const channelItem = (page: Page, name: string) => page.getByRole("listitem", { name, exact: true });

/** A bot in the owner's guild allowed to manage channels, and its token for REST. */
async function seedChannelBot(owner: Owner) {
  const db = e2eDb();
  const { application, botUser, botToken } = await db.$transaction((tx) => createApplication(tx, { name: uniqueName("Automation"), ownerId: owner.user.id }));
  const [role] = await seedRolesAt(owner.guild.id, [{ name: "Automation", position: 1, permissions: P.ManageChannels }]);
  await addGuildMember({ db, actor: null }, { guildId: owner.guild.id, userId: botUser.id, roleIds: [role!.id] });
  return { application, botToken };
}

test("two browsers on one guild see each other's changes, and a REST change, without a reload", async ({ browser, owner }) => {
  await seedMembers(owner.guild.id, ["troublemaker"]);
  await seedRole(owner, "Helpers");
  const watcher = await seedMemberWithRoles(owner, "watcher", []);
  const { botToken } = await seedChannelBot(owner);
  const a = await browserFor(browser, owner);
  const b = await browserFor(browser, watcher);
  const guild = `/guilds/${owner.guild.id}`;

  // A member timed out.
  await Promise.all([a.page.goto(`${guild}/members`), b.page.goto(`${guild}/members`)]);
  await expect(memberRow(b.page, "troublemaker")).not.toContainText("Timed out");
  await pickFromMenu(a.page, "Actions for troublemaker", "Time out");
  const dialog = a.page.getByRole("dialog", { name: "Time out member" });
  await dialog.getByText("10 minutes", { exact: true }).click();
  await dialog.getByRole("button", { name: "Time out" }).click();
  await expect(memberRow(b.page, "troublemaker")).toContainText("Timed out");

  // A role renamed.
  await Promise.all([a.page.goto(`${guild}/roles`), b.page.goto(`${guild}/roles`)]);
  await expect(b.page.getByRole("row", { name: /Helpers/ })).toBeVisible();
  await a.page.getByRole("button", { name: "Edit Helpers" }).click();
  const drawer = a.page.getByRole("dialog", { name: "Edit role: Helpers" });
  await drawer.getByLabel("Role name").fill("Caretakers");
  await drawer.getByRole("button", { name: "Save role" }).click();
  await expect(b.page.getByRole("row", { name: /Caretakers/ })).toBeVisible();
  await expect(b.page.getByRole("row", { name: /Helpers/ })).toHaveCount(0);

  // A channel created in one browser, then one created by a bot over REST.
  await Promise.all([a.page.goto(`${guild}/channels`), b.page.goto(`${guild}/channels`)]);
  await expect(channelItem(b.page, "general")).toBeVisible();
  await a.page.getByRole("button", { name: "Create channel" }).click();
  const create = a.page.getByRole("dialog", { name: "Create channel" });
  await create.getByLabel("Channel name").fill("release-notes");
  await create.getByRole("button", { name: "Create channel" }).click();
  await expect(channelItem(b.page, "release-notes")).toBeVisible();

  const made = await b.page.request.post(`/api/v10/guilds/${owner.guild.id}/channels`, {
    headers: { Authorization: `Bot ${botToken}` },
    data: { name: "from-the-api" },
  });
  expect(made.ok()).toBe(true);
  await expect(channelItem(b.page, "from-the-api")).toBeVisible();
  await expect(channelItem(a.page, "from-the-api")).toBeVisible();

  await a.context.close();
  await b.context.close();
});

test("a channel a viewer cannot view tells them nothing, while its viewers see it", async ({ browser, owner }) => {
  const watcher = await seedMemberWithRoles(owner, "watcher", []);
  const a = await browserFor(browser, owner);
  const b = await browserFor(browser, watcher);
  const channels = `/guilds/${owner.guild.id}/channels`;
  await Promise.all([a.page.goto(channels), b.page.goto(channels)]);
  await expect(channelItem(b.page, "general")).toBeVisible();

  const hidden = await seedChannel(owner, "staff-only", [{ id: owner.guild.id, type: 0, deny: P.ViewChannel }]);
  await seedChannel(owner, "after-staff", []);
  await expect(channelItem(a.page, "staff-only")).toBeVisible();
  // The open channel came after the hidden one: by the time it shows, the hidden one's event has passed.
  await expect(channelItem(b.page, "after-staff")).toBeVisible();
  await expect(channelItem(b.page, "staff-only")).toHaveCount(0);
  const received = await b.page.evaluate(() => (window as unknown as Recorded).liveMessages);
  expect(received.some((message) => message.includes("CHANNEL_CREATE"))).toBe(true);
  expect(received.filter((message) => message.includes(hidden.id))).toEqual([]);

  await a.context.close();
  await b.context.close();
});

test("a lobby message shows on the lobby's page as it is sent", async ({ page, owner }) => {
  const db = e2eDb();
  const { application, botToken } = await db.$transaction((tx) => createApplication(tx, { name: uniqueName("Live game"), ownerId: owner.user.id }));
  const player = await createUser(db, { username: "live_player", globalName: null });
  const playerToken = await issueBearerToken({ db, actor: null }, { userId: player.id, applicationId: application.id, scopes: ["sdk.social_layer"] });
  const made = await page.request.post("/api/v10/lobbies", { headers: { Authorization: `Bot ${botToken}` }, data: { members: [{ id: player.id }] } });
  const lobbyId = ((await made.json()) as { id: string }).id;

  await signIn(page, owner);
  await page.goto(`/applications/${application.id}/lobbies/${lobbyId}`);
  await expect(page.getByText("live_player").first()).toBeVisible();
  const sent = await page.request.post(`/api/v10/lobbies/${lobbyId}/messages`, {
    headers: { Authorization: `Bearer ${playerToken}` },
    data: { content: "gg, well played" },
  });
  expect(sent.status()).toBe(200);
  await expect(page.getByText("gg, well played")).toBeVisible();
});

test("a page whose stream drops says it is reconnecting, then catches up without a reload", async ({ browser, owner }) => {
  const watcher = await seedMemberWithRoles(owner, "watcher", []);
  const b = await browserFor(browser, watcher);
  await b.page.goto(`/guilds/${owner.guild.id}/channels`);
  await expect(channelItem(b.page, "general")).toBeVisible();
  // A change showing proves the stream live before it drops.
  await seedChannel(owner, "before-the-drop", []);
  await expect(channelItem(b.page, "before-the-drop")).toBeVisible();

  // The network goes: the stream breaks, and every attempt to open it again fails until it is back.
  const live = "**/api/trpc/live.guild?**";
  await b.page.route(live, (route) => route.abort("internetdisconnected"));
  await b.page.evaluate(() => (window as unknown as Recorded).dropLiveStreams());
  const indicator = b.page.getByRole("status").filter({ hasText: "Reconnecting…" });
  await expect(indicator).toBeVisible();
  mkdirSync("/tmp/live", { recursive: true });
  await b.page.screenshot({ path: "/tmp/live/reconnecting.png" });

  await seedChannel(owner, "made-while-away", []);
  await b.page.unroute(live);
  await expect(channelItem(b.page, "made-while-away")).toBeVisible();
  await expect(indicator).toBeHidden();
  await b.context.close();
});
