// One world of real resources for tests that walk the whole route table: every path
// parameter of every row names something that exists, and callers of each kind stand
// around it (the guild's owner, members without permissions, outsiders, other tokens).
import { randomBytes } from "node:crypto";
import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { createUser, issueBearerToken } from "~/server/applications/application.service.ts";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { createGuildSticker } from "~/server/stickers/sticker.service.ts";
import { dashboardActor, type OAuth2Scope } from "~/server/auth/actor.ts";
import { runChange } from "~/server/events/change.ts";
import { recordBotIntegration } from "~/server/integrations/integration-lifecycle.ts";
import { addGuildMember } from "~/server/members/member.service.ts";
import { resetClientSecret } from "~/server/oauth2/client-settings.ts";
import type { Route } from "~/server/rest/route.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "./factories.ts";
import { lobbyKit } from "./lobby-kit.ts";
import { PNG } from "./member-kit.ts";
import { bearer, bot } from "./rest-client.ts";
import type { TestApp } from "./test-app.ts";

const ALL_SCOPES: OAuth2Scope[] = ["identify", "email", "connections", "guilds", "guilds.join", "guilds.members.read", "sdk.social_layer"];
const PLAYER_SCOPES: OAuth2Scope[] = ["identify", "guilds", "guilds.join", "guilds.members.read", "openid", "sdk.social_layer"];

const unique = () => randomBytes(4).toString("hex");

async function ok<T = any>(what: string, response: Promise<{ status: number; body: any }>): Promise<T> {
  const res = await response;
  if (res.status >= 300) throw new Error(`world: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** A bot with the privileged intents approved, so what decides its calls is the guild's permissions. */
async function intentBot(app: TestApp) {
  const made = await makeBot(app.db);
  await setApprovedIntents({ db: app.db, actor: null }, made.application.id, ["GUILD_MEMBERS", "MESSAGE_CONTENT"], true);
  return made;
}

/**
 * The world: a discoverable guild owned by a bot, whose @everyone may do nothing, with a
 * channel of each kind, a thread, messages, webhooks with tokens, an invite, a role, a
 * member, a ban, an integration and a scheduled event; and a lobby of the owner's
 * application with players and a channel linked; the owner's application's commands.
 */
export async function buildWorld(app: TestApp) {
  const owner = await intentBot(app);
  const api = app.as(bot(owner.token));
  const guild = await makeGuild(app.db, owner.actor);
  const g = guild.id;
  await writeGuildState(app.db, g, (tx) =>
    tx.guild.update({ where: { id: g }, data: { features: JSON.stringify(["DISCOVERABLE", "COMMUNITY", "NEWS"]), description: "world" } }),
  );
  await writeGuildState(app.db, g, (tx) => tx.role.update({ where: { id: g }, data: { permissions: 0n } }));

  const channels = await ok<{ id: string; type: number }[]>("channels", api.get(`/guilds/${g}/channels`));
  const text = channels.find((channel) => channel.type === ChannelType.GuildText)!.id;
  const voice = channels.find((channel) => channel.type === ChannelType.GuildVoice)!.id;
  const addChannel = (type: ChannelType, name: string) =>
    writeGuildState(app.db, g, (tx) => tx.channel.create({ data: { id: newId(), guildId: g, name, type } }));
  const announcement = (await addChannel(ChannelType.GuildAnnouncement, "news")).id;
  const forum = (await addChannel(ChannelType.GuildForum, "forum")).id;
  const media = (await addChannel(ChannelType.GuildMedia, "media")).id;
  const stage = (await addChannel(ChannelType.GuildStageVoice, "stage")).id;
  const category = (await addChannel(ChannelType.GuildCategory, "category")).id;
  const thread = (await ok<{ id: string }>("thread", api.post(`/channels/${text}/threads`, { name: "thread", type: ChannelType.PublicThread }))).id;
  const message = (await ok<{ id: string }>("message", api.post(`/channels/${text}/messages`, { content: "hello" }))).id;
  const news = (await ok<{ id: string }>("news message", api.post(`/channels/${announcement}/messages`, { content: "news" }))).id;

  const webhook = await ok<{ id: string; token: string }>("webhook", api.post(`/channels/${text}/webhooks`, { name: "world hook" }));
  const sibling = await ok<{ id: string; token: string }>("second webhook", api.post(`/channels/${text}/webhooks`, { name: "sibling hook" }));
  const webhookMessage = (
    await ok<{ id: string }>("webhook message", app.as().post(`/webhooks/${webhook.id}/${webhook.token}`, { content: "hook" }, { query: { wait: true } }))
  ).id;
  await ok("widget", api.patch(`/guilds/${g}/widget`, { enabled: true, channel_id: text }));
  const invite = (await ok<{ code: string }>("invite", api.post(`/channels/${text}/invites`, { unique: true }))).code;
  const role = (await ok<{ id: string }>("role", api.post(`/guilds/${g}/roles`, { name: "plain role" }))).id;
  const speakers = (
    await ok<{ id: string }>(
      "role",
      api.post(`/guilds/${g}/roles`, { name: "speakers", permissions: String(P.ViewChannel | P.SendMessages | P.CreateInstantInvite) }),
    )
  ).id;

  // A guild emoji and sticker, and an emoji of the owner's application.
  const emoji = (await ok<{ id: string }>("emoji", api.post(`/guilds/${g}/emojis`, { name: "world", image: PNG }))).id;
  const pngFile = Object.assign(Buffer.from(PNG.split(",")[1]!, "base64"), { filename: "world.png", contentType: "image/png" });
  const sticker = (await createGuildSticker({ db: app.db, actor: owner.actor }, { guildId: g, body: { name: "world", tags: "smile", file: pngFile } })).id;
  const applicationEmoji = (
    await ok<{ id: string }>("application emoji", api.post(`/applications/${owner.application.id}/emojis`, { name: "world", image: PNG }))
  ).id;

  // A member, a user banned, another bot added by a person (its integration), an event.
  const target = await makeUser(app.db);
  await addMember(app.db, g, target.user.id);
  const banned = await makeUser(app.db);
  await ok("ban", api.put(`/guilds/${g}/bans/${banned.user.id}`, {}));
  const integrated = await makeBot(app.db);
  await addGuildMember({ db: app.db, actor: dashboardActor(target.user.id) }, { guildId: g, userId: integrated.user.id });
  const integration = (await ok<{ id: string; application?: { id: string } }[]>("integrations", api.get(`/guilds/${g}/integrations`))).find(
    (each) => each.application?.id === integrated.application.id,
  )!.id;
  const start = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
  const end = new Date(Date.now() + 25 * 60 * 60 * 1000).toISOString();
  const event = (
    await ok<{ id: string }>(
      "scheduled event",
      api.post(`/guilds/${g}/scheduled-events`, {
        name: "event",
        privacy_level: 2,
        entity_type: 3,
        scheduled_start_time: start,
        scheduled_end_time: end,
        entity_metadata: { location: "here" },
      }),
    )
  ).id;

  // Another guild, with its own webhook: its token is a real one, for the wrong webhook.
  const elsewhere = await intentBot(app);
  const otherGuild = await makeGuild(app.db, elsewhere.actor);
  const otherText = (await ok<{ id: string; type: number }[]>("channels", app.as(bot(elsewhere.token)).get(`/guilds/${otherGuild.id}/channels`))).find(
    (channel) => channel.type === ChannelType.GuildText,
  )!.id;
  const foreignWebhook = await ok<{ id: string; token: string }>(
    "foreign webhook",
    app.as(bot(elsewhere.token)).post(`/channels/${otherText}/webhooks`, { name: "foreign" }),
  );

  // The owner's game: a player who may link channels, in the guild with a role to speak and invite, the lobby linked to #text.
  const lobbies = lobbyKit(app);
  const player = await lobbies.player(owner.application.id, PLAYER_SCOPES);
  await addMember(app.db, g, player.user.id, [speakers]);
  const lobby = await lobbies.lobby(api, { members: [{ id: player.user.id, flags: 1 }, { id: target.user.id }] });
  await ok("channel link", player.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: text }));
  const lobbyMessage = (await ok<{ id: string }>("lobby message", player.api.post(`/lobbies/${lobby.id}/messages`, { content: "gg" }))).id;

  // The owner's application installed in its guild (as a bot added through OAuth2 is), with a
  // global and a guild command, the guild one's permissions set by a member who may: a person
  // with Manage Guild and Manage Roles, through their token for the application.
  const appId = owner.application.id;
  await runChange({ db: app.db, actor: null }, (change) => recordBotIntegration(change, { guildId: g, userId: owner.user.id, addedBy: null }));
  const globalCommand = (await ok<{ id: string }>("global command", api.post(`/applications/${appId}/commands`, { name: "world", description: "world" }))).id;
  const guildCommand = (
    await ok<{ id: string }>("guild command", api.post(`/applications/${appId}/guilds/${g}/commands`, { name: "world", description: "world" }))
  ).id;
  const editors = (
    await ok<{ id: string }>(
      "role",
      api.post(`/guilds/${g}/roles`, { name: "command editors", permissions: String(P.ManageGuild | P.ManageRoles | P.UseApplicationCommands) }),
    )
  ).id;
  const editor = await createUser(app.db, { username: `editor_${unique()}` });
  await addMember(app.db, g, editor.id, [editors]);
  const editorToken = await issueBearerToken(
    { db: app.db, actor: null },
    { userId: editor.id, applicationId: appId, scopes: ["applications.commands.permissions.update"] },
  );
  await ok(
    "command permissions",
    app.as(bearer(editorToken)).put(`/applications/${appId}/guilds/${g}/commands/${guildCommand}/permissions`, {
      permissions: [{ id: g, type: 1, permission: true }],
    }),
  );

  // The owner's application as an OAuth2 client, for the token endpoints.
  const clientSecret = await resetClientSecret({ db: app.db, actor: null }, owner.application.id);

  return {
    owner: { ...owner, api },
    clientSecret,
    player,
    guild: g,
    channels: { text, voice, announcement, forum, media, stage, category, thread },
    message,
    news,
    webhook,
    sibling,
    foreignWebhook,
    webhookMessage,
    invite,
    role,
    target: target.user.id,
    banned: banned.user.id,
    integration,
    event,
    emoji,
    sticker,
    applicationEmoji,
    lobby: lobby.id,
    lobbyMessage,
    commands: { global: globalCommand, guild: guildCommand },
    commandEditor: { id: editor.id, token: editorToken },
    /** Ids that exist, for generated values to name. */
    ids: [
      g,
      text,
      voice,
      announcement,
      forum,
      media,
      stage,
      category,
      thread,
      message,
      news,
      webhook.id,
      role,
      speakers,
      target.user.id,
      banned.user.id,
      player.user.id,
      owner.user.id,
      lobby.id,
      event,
      emoji,
      sticker,
      globalCommand,
      guildCommand,
    ],
  };
}

export type World = Awaited<ReturnType<typeof buildWorld>>;

/** What a route's path is about: a lobby, a guild (or something in one), or the caller alone. */
function scopeOf(route: Route): "lobby" | "guild" | "self" {
  if (route.path.startsWith("/lobbies/")) return "lobby";
  return /:(guildId|channelId|webhookId|code)\b/.test(route.path) ? "guild" : "self";
}

/** Path parameters by name, with the rows that need another thing of that name. */
function paramValues(world: World, path: string): Record<string, string> {
  const values: Record<string, string> = {
    guildId: world.guild,
    channelId: world.channels.text,
    messageId: world.message,
    webhookId: world.webhook.id,
    token: world.webhook.token,
    code: world.invite,
    roleId: world.role,
    userId: world.target,
    integrationId: world.integration,
    eventId: world.event,
    lobbyId: world.lobby,
    overwriteId: world.role,
    emoji: "👍",
    emojiId: world.emoji,
    stickerId: world.sticker,
    applicationId: world.owner.application.id,
  };
  if (path.startsWith("/applications/")) {
    values.emojiId = world.applicationEmoji;
    // A guild's registry holds its own commands; the global one the application's.
    values.commandId = path.includes("/guilds/") ? world.commands.guild : world.commands.global;
  }
  if (path.startsWith("/webhooks/")) values.messageId = world.webhookMessage;
  if (path.startsWith("/lobbies/")) values.messageId = world.lobbyMessage;
  if (path.includes("/bans/")) values.userId = world.banned;
  if (path.endsWith("/voice-status")) values.channelId = world.channels.voice;
  if (path.includes("/thread-members")) {
    // The world's thread, and its starter, who is in it.
    values.channelId = world.channels.thread;
    values.userId = world.owner.user.id;
  }
  if (path.endsWith("/crosspost") || path.endsWith("/followers")) {
    values.channelId = world.channels.announcement;
    values.messageId = world.news;
  }
  return values;
}

/** The route's path with every parameter filled from the world; fails naming a parameter the world has nothing for. */
export function fillPath(world: World, route: Route, overrides: Record<string, string> = {}): string {
  const values = { ...paramValues(world, route.path), ...overrides };
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`${route.method} ${route.path}: the route world has no value for :${name}; add one to paramValues in src/test/route-world.ts`);
    return encodeURIComponent(value);
  });
}

export type CallerName = "anonymous" | "otherKind" | "outsider" | "member";
export const CALLERS: readonly CallerName[] = ["anonymous", "otherKind", "outsider", "member"];

/** A caller: its Authorization header (none when absent) and the path parameters it brings (a webhook token). */
export type Caller = { authorization?: string; params: Record<string, string> };

const hasToken = (route: Route) => route.path.includes(":token");

/** The caller a route is for: the owner's bot, the owner's player, the command editor, or the webhook's own token. */
export function authorizedCaller(world: World, route: Route): Caller {
  if (route.auth === "none") return { params: {} };
  if (route.auth === "bearer") return { authorization: bearer(world.player.token), params: {} };
  // Only a person replaces command permissions, through their token for the application (a bot's is refused).
  if (route.method === "PUT" && route.scopes?.includes("applications.commands.permissions.update"))
    return { authorization: bearer(world.commandEditor.token), params: {} };
  return { authorization: bot(world.owner.token), params: {} };
}

/**
 * A caller who is not the one the route is for, made fresh for each row, so what one
 * row lets it do (join, leave) never changes what another sees:
 * - anonymous: no Authorization; a made-up webhook token in the path.
 * - otherKind: a Bearer token of a guild member on Bot routes, the owner's Bot token on
 *   Bearer routes, a Bearer token without scopes on routes of either kind.
 * - outsider: a bot of another application outside the guild (a player of another
 *   application for lobbies); a real token of another guild's webhook.
 * - member: a bot in the guild with no permissions (for lobbies, the guild the lobby is
 *   linked to: bots cannot be lobby members); a player in the lobby without flags on Bearer
 *   lobby routes; the token of another webhook of the channel.
 */
export async function makeCaller(app: TestApp, world: World, route: Route, name: CallerName): Promise<Caller> {
  const scope = scopeOf(route);
  const kind = route.auth === "bearer" ? "bearer" : "bot";
  const webhookToken = (token: string): Record<string, string> => (hasToken(route) ? { token } : {});
  const game = world.owner.application.id;
  /** A user in the guild (and, for lobby rows, in the lobby, put there by the game server; bots cannot be). */
  const join = async (userId: string, isBot = false) => {
    await addMember(app.db, world.guild, userId);
    if (scope === "lobby" && !isBot) await ok("lobby member", world.owner.api.put(`/lobbies/${world.lobby}/members/${userId}`, {}));
  };
  switch (name) {
    case "anonymous":
      return { params: webhookToken(`wrong${unique()}`) };
    case "otherKind": {
      if (route.auth === "none") return { authorization: bot(world.owner.token), params: webhookToken(`wrong${unique()}`) };
      if (route.auth === "bearer") return { authorization: bot(world.owner.token), params: {} };
      const user = await createUser(app.db, { username: `other_${unique()}` });
      await join(user.id);
      const scopes = route.auth === "any" ? [] : ALL_SCOPES;
      return { authorization: bearer(await issueBearerToken({ db: app.db, actor: null }, { userId: user.id, applicationId: game, scopes })), params: {} };
    }
    case "outsider": {
      if (kind === "bearer") {
        const elsewhere = (await makeBot(app.db)).application.id;
        const user = await createUser(app.db, { username: `outsider_${unique()}` });
        return {
          authorization: bearer(await issueBearerToken({ db: app.db, actor: null }, { userId: user.id, applicationId: elsewhere, scopes: ALL_SCOPES })),
          params: {},
        };
      }
      const made = await intentBot(app);
      return { authorization: bot(made.token), params: webhookToken(world.foreignWebhook.token) };
    }
    case "member": {
      if (kind === "bearer") {
        const user = await createUser(app.db, { username: `member_${unique()}` });
        await join(user.id);
        return {
          authorization: bearer(await issueBearerToken({ db: app.db, actor: null }, { userId: user.id, applicationId: game, scopes: ALL_SCOPES })),
          params: {},
        };
      }
      const made = await intentBot(app);
      await join(made.user.id, true);
      return { authorization: bot(made.token), params: webhookToken(world.sibling.token) };
    }
  }
}
