import { expect, request, type Locator, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { PermissionFlagsBits } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createGuildEmoji } from "~/server/emojis/emoji.service.ts";
import { setVanityUrl } from "~/server/invites/vanity.service.ts";
import { E2E_BASE_URL } from "./e2e-env.ts";
import { clickUntilShown } from "./fixtures.ts";
import {
  e2eDb,
  seedBan,
  seedCommands,
  seedGuest,
  seedIntegrations,
  seedInvite,
  seedLobby,
  seedMemberWithRoles,
  seedOwner,
  seedRolesAt,
  seedChannel,
  seedThreads,
  seedVanityFeature,
  seedWebhook,
  seedWidget,
} from "./seed.ts";

/** Who looks at the pages: the guild's owner, a moderator, a member without permissions, and someone signed out. */
export const VIEWERS = ["owner", "moderator", "member", "visitor"] as const;
export type Viewer = (typeof VIEWERS)[number];
const SIGNED_IN: readonly Viewer[] = ["owner", "moderator", "member"];

/** What the pages are about: one guild with a bit of everything, and the people who look at it. */
export type World = Awaited<ReturnType<typeof seedWorld>>;

/** The permissions that make a moderator: they act on members and messages and read the audit log, nothing else. */
const MODERATION =
  PermissionFlagsBits.KickMembers |
  PermissionFlagsBits.BanMembers |
  PermissionFlagsBits.ModerateMembers |
  PermissionFlagsBits.ManageMessages |
  PermissionFlagsBits.ViewAuditLog;

/** A 1×1 PNG. */
const SWEEP_EMOJI = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

export async function seedWorld() {
  const owner = await seedOwner("sweep-owner");
  const [moderators] = await seedRolesAt(owner.guild.id, [{ name: "Moderators", position: 1, permissions: MODERATION }]);
  const moderator = await seedMemberWithRoles(owner, "sweep_moderator", [moderators!.id]);
  const member = await seedMemberWithRoles(owner, "sweep_member", []);
  const banned = await seedGuest("sweep_banned");
  await seedBan(owner, banned.user.id);
  const invite = await seedInvite(owner);
  // An invite that grants a role, so the Invites page shows its role badges.
  await seedInvite(owner, [moderators!.id]);
  // Channels enough that every list of them scrolls, as in a guild people use.
  for (const name of ["rules", "announcements", "off-topic", "help", "events", "feedback"]) await seedChannel(owner, name, []);
  // Settings shows the vanity URL section only with the feature, and its link only with a code.
  await seedVanityFeature(owner.guild.id);
  await setVanityUrl({ db: e2eDb(), actor: dashboardActor(owner.user.id) }, { guildId: owner.guild.id, code: `sweep-${randomBytes(3).toString("hex")}` });
  const { channel, path } = await seedWebhook(owner, "Deploys");
  await seedThreads(owner, channel.id);
  await seedWidget(owner, channel.id);
  // An emoji, so the Emoji & Stickers page shows its table with a row.
  await createGuildEmoji({ db: e2eDb(), actor: dashboardActor(owner.user.id) }, { guildId: owner.guild.id, body: { name: "sweep", image: SWEEP_EMOJI } });
  const { application, botToken } = await seedIntegrations(owner);
  // Commands its bot registered, so the Integrations page and the application's Commands page show their tables.
  await seedCommands({ applicationId: application.id, botToken }, owner.guild.id, {
    global: [{ name: "ban", description: "Bans a member", default_member_permissions: String(PermissionFlagsBits.BanMembers) }],
    guild: [{ type: 3, name: "Report message" }],
  });
  const lobby = await seedLobby(application);
  // A message with an embed, so the Messages page shows one.
  const api = await request.newContext({ baseURL: E2E_BASE_URL });
  const sent = await api.post(path, { data: { content: "Deploy finished", embeds: [{ title: "Build 42", timestamp: new Date().toISOString() }] } });
  if (!sent.ok()) throw new Error(`Could not post the seed message: ${sent.status()}`);
  await api.dispose();
  return {
    accounts: { owner, moderator, member } satisfies Record<Exclude<Viewer, "visitor">, { email: string; password: string }>,
    guildId: owner.guild.id,
    channelId: channel.id,
    applicationId: application.id,
    lobbyId: lobby.id,
    inviteCode: invite.code,
  };
}

/**
 * Something a user opens on a page that a load alone does not show (a dialog, a menu, an open
 * list, hidden rows): the sweep checks the page again with it open.
 */
type PageState = {
  name: string;
  open: (page: Page) => Promise<unknown>;
  /** Who opens it; the owner, who may do everything, unless said. */
  viewers?: readonly Viewer[];
};

type DashboardPage = {
  /** Names the test and the screenshot. */
  name: string;
  path: (world: World) => string;
  /** Who opens it; everyone signed in unless said. */
  viewers?: readonly Viewer[];
  states?: readonly PageState[];
};

const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });
/** The dialog `button` opens. */
const dialogOf = (page: Page, name: string, dialog: string) => clickUntilShown(button(page, name), page.getByRole("dialog", { name: dialog }));
/** The options of the select named `name`, open. */
const optionsOf = (page: Page, name: string) => clickUntilShown(page.getByRole("combobox", { name }), page.getByRole("listbox", { name }));
/** The first invite's Target users dialog. */
async function openTargetUsers(page: Page): Promise<Locator> {
  const dialog = page.getByRole("dialog", { name: "Target users" });
  await clickUntilShown(page.getByRole("button", { name: /^Target users of/ }).first(), dialog);
  return dialog;
}

/** The options of the select named `select` in the dialog `button` opens. */
async function optionsInDialog(page: Page, name: string, dialog: string, select: string): Promise<void> {
  await dialogOf(page, name, dialog);
  await optionsOf(page, select);
}

const guild = (world: World) => `/guilds/${world.guildId}`;
const channel = (world: World) => `${guild(world)}/channels/${world.channelId}`;
const application = (world: World) => `/applications/${world.applicationId}`;

/** Every page of the dashboard. A new page gets a line here, and the sweep opens it for every viewer. */
export const PAGES: readonly DashboardPage[] = [
  { name: "guild-list", path: () => "/" },
  {
    name: "settings",
    path: guild,
    states: [{ name: "transferring ownership", open: (page) => optionsInDialog(page, "Transfer ownership", "Transfer ownership", "New owner") }],
  },
  { name: "roles", path: (w) => `${guild(w)}/roles`, states: [{ name: "creating a role", open: (page) => dialogOf(page, "Create role", "Create role") }] },
  {
    name: "channels",
    path: (w) => `${guild(w)}/channels`,
    states: [
      { name: "archived threads shown", open: (page) => clickUntilShown(button(page, "Show 1 archived thread"), button(page, "Unarchive Old ideas")) },
      { name: "channel types listed", open: (page) => optionsInDialog(page, "Create channel", "Create channel", "Channel type") },
      { name: "editing a channel", open: (page) => dialogOf(page, "Edit general", "Edit general") },
    ],
  },
  {
    name: "channel-messages",
    path: (w) => `${channel(w)}/messages`,
    states: [
      { name: "a message's actions", open: (page) => clickUntilShown(button(page, "More actions for the message from Deploys"), page.getByRole("menu")) },
      {
        name: "picking a reaction",
        open: (page) => clickUntilShown(button(page, "Add a reaction to the message from Deploys"), button(page, "React with 👍")),
      },
    ],
  },
  { name: "channel-webhooks", path: (w) => `${channel(w)}/webhooks` },
  { name: "channel-permissions", path: (w) => `${channel(w)}/permissions` },
  { name: "channel-search", path: (w) => `${guild(w)}/channels/search` },
  {
    name: "emojis",
    path: (w) => `${guild(w)}/emojis`,
    states: [
      { name: "uploading an emoji", open: (page) => dialogOf(page, "Upload emoji", "Upload emoji") },
      { name: "stickers shown", open: (page) => clickUntilShown(page.getByRole("tab", { name: "Stickers" }), button(page, "Upload sticker")) },
    ],
  },
  {
    name: "members",
    path: (w) => `${guild(w)}/members`,
    states: [
      {
        name: "a member's actions",
        open: (page) => clickUntilShown(button(page, "Actions for sweep_member"), page.getByRole("menu")),
        viewers: ["owner", "moderator"],
      },
      {
        name: "a member's details",
        open: async (page) => {
          await clickUntilShown(button(page, "Actions for sweep_member"), page.getByRole("menu"));
          await clickUntilShown(page.getByRole("menuitem", { name: "Details" }), page.getByRole("dialog", { name: "Member details" }));
        },
      },
    ],
  },
  { name: "bans", path: (w) => `${guild(w)}/bans` },
  {
    name: "invites",
    path: (w) => `${guild(w)}/invites`,
    states: [
      { name: "channels to invite to listed", open: (page) => optionsInDialog(page, "Create invite", "Create invite", "Channel") },
      { name: "roles to grant listed", open: (page) => optionsInDialog(page, "Create invite", "Create invite", "Roles granted") },
      { name: "an invite's target users", open: openTargetUsers },
      {
        name: "a refused file's line problems",
        open: async (page) => {
          const dialog = await openTargetUsers(page);
          // More bad lines than the dialog shows at once, so their list scrolls.
          const lines = Array.from({ length: 20 }, (_, index) => `not-an-id-${index}`);
          await dialog
            .getByLabel("Upload target users CSV")
            .setInputFiles({ name: "targets.csv", mimeType: "text/csv", buffer: Buffer.from(`user_id\n${lines.join("\n")}\n`) });
          await expect(dialog.getByText("The file was not accepted")).toBeVisible();
        },
      },
    ],
  },
  { name: "onboarding", path: (w) => `${guild(w)}/onboarding` },
  { name: "welcome-screen", path: (w) => `${guild(w)}/welcome-screen` },
  { name: "widget", path: (w) => `${guild(w)}/widget`, states: [{ name: "invite channels listed", open: (page) => optionsOf(page, "Invite channel") }] },
  { name: "safety", path: (w) => `${guild(w)}/safety` },
  {
    name: "integrations",
    path: (w) => `${guild(w)}/integrations`,
    states: [
      {
        name: "editing command permissions",
        open: (page) =>
          clickUntilShown(
            page.getByRole("button", { name: /^Permissions for all commands of / }),
            page.getByRole("dialog", { name: "Permissions for all commands" }),
          ),
      },
    ],
  },
  {
    name: "audit-log",
    path: (w) => `${guild(w)}/audit-log`,
    states: [
      {
        name: "an entry's details",
        open: (page) => clickUntilShown(page.getByRole("button", { name: /^Show details/ }).first(), page.getByRole("button", { name: /^Hide details/ })),
      },
    ],
  },
  { name: "account", path: () => "/account" },
  { name: "applications", path: () => "/applications" },
  { name: "authorized-apps", path: () => "/account/authorized-apps" },
  { name: "direct-messages", path: () => "/account/messages" },
  // The world's application's bot install link: the consent page.
  { name: "oauth2-authorize", path: (w) => `/oauth2/authorize?client_id=${w.applicationId}&scope=bot&permissions=2048` },
  { name: "api-reference", path: () => "/reference" },
  // The application is the owner's: others get the not-found page, which must be just as sound.
  { name: "application", path: application },
  { name: "application-commands", path: (w) => `${application(w)}/commands` },
  { name: "lobbies", path: (w) => `${application(w)}/lobbies` },
  { name: "lobby", path: (w) => `${application(w)}/lobbies/${w.lobbyId}` },
  { name: "sign-in", path: () => "/signin", viewers: ["visitor"] },
  { name: "public-invite", path: (w) => `/invite/${w.inviteCode}`, viewers: VIEWERS },
  { name: "not-found", path: () => "/no-such-page", viewers: VIEWERS },
];

export function viewersOf(page: DashboardPage): readonly Viewer[] {
  return page.viewers ?? SIGNED_IN;
}

/** The states of `page` that `viewer` opens. */
export function statesOf(page: DashboardPage, viewer: Viewer): readonly PageState[] {
  return (page.states ?? []).filter((state) => (state.viewers ?? ["owner"]).includes(viewer));
}
