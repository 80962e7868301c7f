import { request } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { PermissionFlagsBits } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { setVanityUrl } from "~/server/invites/vanity.service.ts";
import { E2E_BASE_URL } from "./e2e-env.ts";
import {
  e2eDb,
  seedBan,
  seedGuest,
  seedIntegrations,
  seedInvite,
  seedLobby,
  seedMemberWithRoles,
  seedOwner,
  seedRolesAt,
  seedVanityFeature,
  seedWebhook,
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

export async function seedWorld() {
  const owner = await seedOwner("sweep-owner");
  const [moderators] = await seedRolesAt(owner.guild.id, [{ name: "Moderators", position: 1, permissions: MODERATION }]);
  const moderator = await seedMemberWithRoles(owner, "sweep_moderator", [moderators!.id]);
  const member = await seedMemberWithRoles(owner, "sweep_member", []);
  const banned = await seedGuest("sweep_banned");
  await seedBan(owner, banned.user.id);
  const invite = await seedInvite(owner);
  // Settings shows the vanity URL section only with the feature, and its link only with a code.
  await seedVanityFeature(owner.guild.id);
  await setVanityUrl({ db: e2eDb(), actor: dashboardActor(owner.user.id) }, { guildId: owner.guild.id, code: `sweep-${randomBytes(3).toString("hex")}` });
  const { channel, path } = await seedWebhook(owner, "Deploys");
  const { application } = await seedIntegrations(owner);
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

type DashboardPage = {
  /** Names the test and the screenshot. */
  name: string;
  path: (world: World) => string;
  /** Who opens it; everyone signed in unless said. */
  viewers?: readonly Viewer[];
};

const guild = (world: World) => `/guilds/${world.guildId}`;
const channel = (world: World) => `${guild(world)}/channels/${world.channelId}`;
const application = (world: World) => `/applications/${world.applicationId}`;

/** Every page of the dashboard. A new page gets a line here, and the sweep opens it for every viewer. */
export const PAGES: readonly DashboardPage[] = [
  { name: "guild-list", path: () => "/" },
  { name: "settings", path: guild },
  { name: "roles", path: (w) => `${guild(w)}/roles` },
  { name: "channels", path: (w) => `${guild(w)}/channels` },
  { name: "channel-messages", path: (w) => `${channel(w)}/messages` },
  { name: "channel-webhooks", path: (w) => `${channel(w)}/webhooks` },
  { name: "channel-permissions", path: (w) => `${channel(w)}/permissions` },
  { name: "channel-search", path: (w) => `${guild(w)}/channels/search` },
  { name: "members", path: (w) => `${guild(w)}/members` },
  { name: "bans", path: (w) => `${guild(w)}/bans` },
  { name: "invites", path: (w) => `${guild(w)}/invites` },
  { name: "onboarding", path: (w) => `${guild(w)}/onboarding` },
  { name: "welcome-screen", path: (w) => `${guild(w)}/welcome-screen` },
  { name: "widget", path: (w) => `${guild(w)}/widget` },
  { name: "safety", path: (w) => `${guild(w)}/safety` },
  { name: "integrations", path: (w) => `${guild(w)}/integrations` },
  { name: "audit-log", path: (w) => `${guild(w)}/audit-log` },
  { name: "account", path: () => "/account" },
  { name: "applications", path: () => "/applications" },
  { name: "authorized-apps", path: () => "/account/authorized-apps" },
  // The world's application's bot install link: the consent page.
  { name: "oauth2-authorize", path: (w) => `/oauth2/authorize?client_id=${w.applicationId}&scope=bot&permissions=2048` },
  { name: "api-reference", path: () => "/reference" },
  // The application is the owner's: others get the not-found page, which must be just as sound.
  { name: "application", path: application },
  { name: "lobbies", path: (w) => `${application(w)}/lobbies` },
  { name: "lobby", path: (w) => `${application(w)}/lobbies/${w.lobbyId}` },
  { name: "sign-in", path: () => "/signin", viewers: ["visitor"] },
  { name: "public-invite", path: (w) => `/invite/${w.inviteCode}`, viewers: VIEWERS },
  { name: "not-found", path: () => "/no-such-page", viewers: VIEWERS },
];

export function viewersOf(page: DashboardPage): readonly Viewer[] {
  return page.viewers ?? SIGNED_IN;
}
