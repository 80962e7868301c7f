import { randomBytes } from "node:crypto";
import { request } from "@playwright/test";
import { ChannelType, GatewayDispatchEvents, GuildFeature, PermissionFlagsBits } from "discord-api-types/v10";
import { createApplication, createUser, newUserWithPassword } from "~/server/applications/application.service.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createGuildChannel } from "~/server/channels/create-channel.service.ts";
import { createLobby } from "~/server/lobbies/lobby.service.ts";
import { createDb, type Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { GUILD_OBJECT_INCLUDE, parseFeatures, toGuildObject } from "~/server/guilds/guild.dto.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { addIntegration } from "~/server/integrations/integration.service.ts";
import { modifyWidgetSettings } from "~/server/guild-config/widget.service.ts";
import { createInvite } from "~/server/invites/invite.service.ts";
import { setVanityUrl } from "~/server/invites/vanity.service.ts";
import { banUser } from "~/server/members/ban.service.ts";
import { memberEventData, MEMBER_INCLUDE } from "~/server/members/member.dto.ts";
import { addGuildMember } from "~/server/members/member.service.ts";
import { setScreening } from "~/server/members/screening.service.ts";
import { setRedirectUris } from "~/server/oauth2/client-settings.ts";
import { toRoleObject } from "~/server/roles/role.dto.ts";
import { createRole, insertRoleAboveEveryone } from "~/server/roles/role.service.ts";
import { createRuntime } from "~/server/runtime/create-runtime.ts";
import type { Runtime } from "~/server/runtime/runtime.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createThread, modifyThread } from "~/server/threads/thread.service.ts";
import { createWebhook } from "~/server/webhooks/webhook.service.ts";
import { E2E_BASE_URL, E2E_DATABASE_URL, E2E_PASSWORD } from "./e2e-env.ts";

let runtime: Runtime | undefined;

/** The run's database, opened once per process in a runtime of its own (services deliver their events through it). */
export function e2eDb(): Db {
  runtime ??= createRuntime({ db: createDb(E2E_DATABASE_URL) });
  return runtime.db;
}

export function uniqueName(prefix: string): string {
  return `${prefix} ${randomBytes(3).toString("hex")}`;
}

/** A dashboard user who owns a new guild, made through the services as the CLI would. */
export async function seedOwner(label: string) {
  const suffix = `${Date.now()}-${randomBytes(3).toString("hex")}`;
  const email = `${label}-${suffix}@example.test`;
  const user = await createUser(
    e2eDb(),
    await newUserWithPassword({ username: label.replace(/[^a-z0-9_.]/g, "_"), globalName: "E2E Owner", email, password: E2E_PASSWORD }),
  );
  const guild = await createGuild({ db: e2eDb(), actor: dashboardActor(user.id) }, { name: uniqueName("Guild") });
  return { user, email, password: E2E_PASSWORD, guild };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Users who join `guildId` through the joining service, as the CLI adds them. With
 * `inactiveDays`, they joined and were last seen that long ago, so a prune finds them.
 */
export async function seedMembers(guildId: string, usernames: readonly string[], options: { inactiveDays?: number; roleIds?: readonly string[] } = {}) {
  const db = e2eDb();
  const users = [];
  for (const username of usernames) {
    const user = await createUser(db, { username, globalName: null });
    await addGuildMember({ db, actor: null }, { guildId, userId: user.id, roleIds: options.roleIds });
    users.push(user);
  }
  if (options.inactiveDays !== undefined) {
    const longAgo = new Date(Date.now() - options.inactiveDays * DAY_MS);
    const userIds = users.map((user) => user.id);
    await db.user.updateMany({ where: { id: { in: userIds } }, data: { lastActiveAt: longAgo } });
    // Member rows change only with their event, so a running server's cached guild state drops them.
    await runChange({ db, actor: null }, async ({ tx, emit }) => {
      await tx.member.updateMany({ where: { guildId, userId: { in: userIds } }, data: { joinedAt: longAgo } });
      for (const row of await tx.member.findMany({ where: { guildId, userId: { in: userIds } }, include: MEMBER_INCLUDE })) {
        await emit(GatewayDispatchEvents.GuildMemberUpdate, memberEventData(guildId, row));
      }
    });
  }
  return users;
}

/** A role in the owner's guild, made by the owner. */
export async function seedRole(owner: { user: { id: string }; guild: { id: string } }, name: string) {
  return createRole({ db: e2eDb(), actor: dashboardActor(owner.user.id) }, { guildId: owner.guild.id, body: { name } });
}

/**
 * Roles placed as an operator would, in this order (so each has a larger id than the one
 * before): several may share a position, where the older role ranks higher.
 */
export async function seedRolesAt(guildId: string, roles: readonly { name: string; position: number; permissions?: bigint; managed?: boolean }[]) {
  return runChange({ db: e2eDb(), actor: null }, async ({ tx, emit }) => {
    const rows = [];
    for (const role of roles) {
      const row = await tx.role.create({
        data: { id: newId(), guildId, name: role.name, position: role.position, permissions: role.permissions ?? 0n, managed: role.managed ?? false },
      });
      await emit(GatewayDispatchEvents.GuildRoleCreate, { guild_id: guildId, role: toRoleObject(row) });
      rows.push(row);
    }
    return rows;
  });
}

/** A user who can sign in and is a member of the owner's guild with `roleIds`. */
export async function seedMemberWithRoles(owner: { guild: { id: string } }, label: string, roleIds: readonly string[]) {
  const email = `${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.test`;
  const user = await createUser(e2eDb(), await newUserWithPassword({ username: label, globalName: null, email, password: E2E_PASSWORD }));
  await addGuildMember({ db: e2eDb(), actor: null }, { guildId: owner.guild.id, userId: user.id, roleIds });
  return { user, email, password: E2E_PASSWORD };
}

/** A text channel in the owner's guild with these overwrites, made by the owner. */
export async function seedChannel(
  owner: { user: { id: string }; guild: { id: string } },
  name: string,
  overwrites: { id: string; type: 0 | 1; allow?: bigint; deny?: bigint }[],
) {
  const permission_overwrites = overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow ?? 0n, deny: o.deny ?? 0n }));
  return createGuildChannel({ db: e2eDb(), actor: dashboardActor(owner.user.id) }, { guildId: owner.guild.id, body: { name, permission_overwrites } });
}

/** Turns membership screening on in the owner's guild and adds a user who can sign in, still pending. */
export async function seedPendingMember(owner: { user: { id: string }; guild: { id: string } }) {
  const db = e2eDb();
  await setScreening({ db, actor: dashboardActor(owner.user.id) }, { guildId: owner.guild.id, enabled: true });
  const email = `newcomer-${Date.now()}-${randomBytes(3).toString("hex")}@example.test`;
  const user = await createUser(db, await newUserWithPassword({ username: "newcomer", globalName: "New Comer", email, password: E2E_PASSWORD }));
  await addGuildMember({ db, actor: null }, { guildId: owner.guild.id, userId: user.id });
  return { user, email, password: E2E_PASSWORD };
}

/** A dashboard user who can sign in and is in no guild yet: someone to invite. */
export async function seedGuest(label: string) {
  const email = `${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.test`;
  const user = await createUser(e2eDb(), await newUserWithPassword({ username: label, globalName: "Guest User", email, password: E2E_PASSWORD }));
  return { user, email, password: E2E_PASSWORD };
}

/** The owner bans a user (who need not be a member), as the Members page would. */
export async function seedBan(owner: { user: { id: string }; guild: { id: string } }, userId: string) {
  await banUser({ db: e2eDb(), actor: dashboardActor(owner.user.id) }, { guildId: owner.guild.id, userId });
}

/** An invite to the owner's #general that never expires (granting `roleIds` to who joins), made by the owner. */
export async function seedInvite(owner: { user: { id: string }; guild: { id: string } }, roleIds?: readonly string[]) {
  const db = e2eDb();
  const general = await db.channel.findFirstOrThrow({ where: { guildId: owner.guild.id, type: ChannelType.GuildText, name: "general" } });
  const body = { max_age: 0, unique: true, ...(roleIds ? { role_ids: [...roleIds] } : {}) };
  return createInvite({ db, actor: dashboardActor(owner.user.id) }, { channelId: general.id, body });
}

/** Threads the owner started in `channelId`: a public one, a private one, and one archived (so the page hides it until asked). */
export async function seedThreads(owner: { user: { id: string } }, channelId: string) {
  const ctx = { db: e2eDb(), actor: dashboardActor(owner.user.id) };
  await createThread(ctx, { channelId, body: { name: "Release planning", type: ChannelType.PublicThread } });
  await createThread(ctx, { channelId, body: { name: "Staff notes", type: ChannelType.PrivateThread, invitable: false } });
  const archived = await createThread(ctx, { channelId, body: { name: "Old ideas", type: ChannelType.PublicThread } });
  await modifyThread(ctx, { channelId: archived.id, body: { archived: true } });
}

/** The owner turns the guild widget on, inviting to `channelId`. */
export async function seedWidget(owner: { user: { id: string }; guild: { id: string } }, channelId: string) {
  await modifyWidgetSettings(
    { db: e2eDb(), actor: dashboardActor(owner.user.id) },
    { guildId: owner.guild.id, body: { enabled: true, channel_id: channelId } },
  );
}

/** Grants the guild VANITY_URL, which is the platform's to give: an operator's write with its Guild Update. */
export async function seedVanityFeature(guildId: string) {
  const db = e2eDb();
  await runChange({ db, actor: null }, async ({ tx, emit }) => {
    const guild = await tx.guild.findUniqueOrThrow({ where: { id: guildId }, include: GUILD_OBJECT_INCLUDE });
    const features = [...parseFeatures(guild.features), GuildFeature.VanityURL];
    const updated = await tx.guild.update({ where: { id: guildId }, data: { features: JSON.stringify(features) } });
    await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, guild.roles, guild));
  });
}

/** Grants VANITY_URL and has the owner set `code` as the guild's vanity URL. */
export async function seedVanityCode(owner: { user: { id: string }; guild: { id: string } }, code: string) {
  await seedVanityFeature(owner.guild.id);
  await setVanityUrl({ db: e2eDb(), actor: dashboardActor(owner.user.id) }, { guildId: owner.guild.id, code });
}

/**
 * Text channels for onboarding's requirement: with #general and the General voice channel the
 * guild has 8, all open to @everyone but #rules, where @everyone may not send messages.
 */
export async function seedOnboardingChannels(owner: { user: { id: string }; guild: { id: string } }) {
  const ctx = { db: e2eDb(), actor: dashboardActor(owner.user.id) };
  const guildId = owner.guild.id;
  const muted = [{ id: guildId, type: 0 as const, allow: 0n, deny: PermissionFlagsBits.SendMessages }];
  await createGuildChannel(ctx, { guildId, body: { name: "rules", permission_overwrites: muted } });
  for (const name of ["welcome", "introductions", "off-topic", "memes", "help"]) await createGuildChannel(ctx, { guildId, body: { name } });
}

/**
 * The owner's guild with a bot the owner added (its integration comes with its joining) and a
 * Twitch integration with its managed role, added as the CLI adds one.
 */
export async function seedIntegrations(owner: { user: { id: string }; guild: { id: string } }) {
  const db = e2eDb();
  const { application, botUser, botToken } = await db.$transaction((tx) => createApplication(tx, { name: uniqueName("Helper Bot"), ownerId: owner.user.id }));
  await addGuildMember({ db, actor: dashboardActor(owner.user.id) }, { guildId: owner.guild.id, userId: botUser.id });
  const twitch = await addIntegration(
    { db, actor: null },
    { guild_id: owner.guild.id, type: "twitch", name: "Owner Streams", account_id: "owner_streams", account_name: "owner_streams", user_id: owner.user.id },
  );
  return { application, botUser, botToken, twitch };
}

/**
 * The application's bot registers commands over REST, as a bot does when it starts: `global`
 * ones for every guild it is installed in, `guild` ones for `guildId` alone.
 */
export async function seedCommands(bot: { applicationId: string; botToken: string }, guildId: string, commands: { global?: unknown[]; guild?: unknown[] }) {
  const api = await request.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bot ${bot.botToken}` } });
  const registries = [
    [`/api/v10/applications/${bot.applicationId}/commands`, commands.global],
    [`/api/v10/applications/${bot.applicationId}/guilds/${guildId}/commands`, commands.guild],
  ] as const;
  for (const [path, list] of registries) {
    if (!list) continue;
    const answer = await api.put(path, { data: list });
    if (!answer.ok()) throw new Error(`Could not register commands at ${path}: ${answer.status()} ${await answer.text()}`);
  }
  await api.dispose();
}

/**
 * A bot the owner added, holding the managed role named for it that its integration keeps
 * (made where the platform makes new roles, just above @everyone).
 */
export async function seedBotWithRole(owner: { user: { id: string }; guild: { id: string } }) {
  const db = e2eDb();
  const guildId = owner.guild.id;
  const { application, botUser } = await db.$transaction((tx) => createApplication(tx, { name: uniqueName("Helper Bot"), ownerId: owner.user.id }));
  await addGuildMember({ db, actor: dashboardActor(owner.user.id) }, { guildId, userId: botUser.id });
  const role = await runChange({ db, actor: null }, async (change) => {
    const row = await insertRoleAboveEveryone(change, guildId, { id: newId(), name: application.name, managed: true });
    await change.tx.integration.updateMany({ where: { guildId, applicationId: application.id }, data: { roleId: row.id } });
    const member = await change.tx.member.update({
      where: { guildId_userId: { guildId, userId: botUser.id } },
      data: { roles: { create: { roleId: row.id } } },
      include: MEMBER_INCLUDE,
    });
    await change.emit(GatewayDispatchEvents.GuildMemberUpdate, memberEventData(guildId, member));
    return row;
  });
  return { application, botUser, role };
}

/** A webhook the owner made in their guild's first text channel, with its channel. */
export async function seedWebhook(owner: { user: { id: string }; guild: { id: string } }, name: string) {
  const db = e2eDb();
  const channel = await db.channel.findFirstOrThrow({ where: { guildId: owner.guild.id, type: ChannelType.GuildText }, orderBy: { position: "asc" } });
  const webhook = await createWebhook({ db, actor: dashboardActor(owner.user.id) }, { channelId: channel.id, body: { name } });
  return { channel, webhook, path: `/api/webhooks/${webhook.id}/${webhook.token}` };
}

/** A lobby of the application, made by its bot as a game server would, idle for up to a week before it shuts down. */
export async function seedLobby(application: { id: string; botUserId: string }) {
  const actor = { kind: "bot" as const, userId: application.botUserId, applicationId: application.id, scopes: new Set<string>() };
  return createLobby({ db: e2eDb(), actor }, { metadata: { mode: "ranked" }, idle_timeout_seconds: 604_800 });
}

/**
 * Another person's application, as a developer registers it: its bot is public and `redirectUri`
 * is registered for its OAuth2 client.
 */
export async function seedOAuth2Application(redirectUri: string) {
  const db = e2eDb();
  const developer = await createUser(db, { username: `developer_${randomBytes(3).toString("hex")}`, globalName: null });
  const { application, botUser } = await db.$transaction((tx) => createApplication(tx, { name: uniqueName("Quest Bot"), ownerId: developer.id }));
  await setRedirectUris({ db, actor: null }, application.id, [redirectUri]);
  return { application, botUser };
}
