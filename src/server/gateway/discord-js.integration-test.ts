import { ChannelType, PermissionFlagsBits } from "discord-api-types/v10";
import { DiscordAPIError, Events, GatewayIntentBits, type Client, type TextChannel } from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueBearerToken } from "~/server/applications/application.service.ts";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { serializePermissions } from "~/server/permissions/permissions.ts";
import { createRole } from "~/server/roles/role.service.ts";
import { addMember, makeBot, makeGuild, makeUser, seedMembers } from "~/test/factories.ts";
import { discordJsServer, nextEvent, type DiscordJsServer } from "~/test/discord-js-kit.ts";
import { startServerProcess } from "~/test/server-process.ts";
import { PNG } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

// A bot written with the real discord.js Client logs in to a real server (server.ts on the
// test database), fills its caches from READY and GUILD_CREATE, and hears as client events
// the changes another bot makes over the same server's REST API.

const app = useTestApp();
let djs: DiscordJsServer;
type Bot = Awaited<ReturnType<typeof makeBot>>;
let owner: Bot;
let bot: Bot;
let guildId: string;
let otherGuildId: string;
let channelId: string;

/** A REST call through the real server, as the guild's owner (another bot) makes it. */
const rest = <T = unknown>(method: string, path: string, body?: unknown) => djs.rest<T>(owner.token, method, path, body);
const loginClient = (token: string, intents: GatewayIntentBits[]) => djs.login(token, { intents });

const ALL_GUILD_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMembers,
  // Without it GUILD_CREATE lists only the bot and members in voice, as on the platform.
  GatewayIntentBits.GuildPresences,
  GatewayIntentBits.GuildModeration,
  GatewayIntentBits.GuildInvites,
  GatewayIntentBits.GuildWebhooks,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
];

describe("a discord.js bot", () => {
  let client: Client;

  beforeAll(async () => {
    owner = await makeBot(app.db);
    bot = await makeBot(app.db);
    await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["GUILD_MEMBERS", "PRESENCE", "MESSAGE_CONTENT"], true);
    const guild = await makeGuild(app.db, owner.actor);
    const other = await makeGuild(app.db, owner.actor);
    guildId = guild.id;
    otherGuildId = other.id;
    // Invite events reach only bots that manage the channel, as on the platform.
    const managers = await createRole(
      { db: app.db, actor: owner.actor },
      { guildId, body: { name: "Bot managers", permissions: serializePermissions(PermissionFlagsBits.ManageChannels) } },
    );
    await addMember(app.db, guildId, bot.user.id, [managers.id]);
    await addMember(app.db, otherGuildId, bot.user.id);
    channelId = (await app.db.guild.findUniqueOrThrow({ where: { id: guildId }, select: { systemChannelId: true } })).systemChannelId!;
    djs = discordJsServer(await startServerProcess({ DATABASE_URL: app.url, RATE_LIMIT_SCALE: "1000" }));
    client = await loginClient(bot.token, ALL_GUILD_INTENTS);
  }, 60_000);

  afterAll(async () => {
    await djs?.stop();
  });

  it("is ready with its guilds, their channels, roles and members in cache", () => {
    expect(client.user?.id).toBe(bot.user.id);
    expect([...client.guilds.cache.keys()].sort()).toEqual([guildId, otherGuildId].sort());
    const guild = client.guilds.cache.get(guildId)!;
    expect(guild.channels.cache.get(channelId)?.name).toBe("general");
    expect(guild.roles.cache.has(guildId)).toBe(true);
    expect(guild.members.cache.has(owner.user.id)).toBe(true);
    expect(guild.members.cache.has(bot.user.id)).toBe(true);
    expect(guild.ownerId).toBe(owner.user.id);
  });

  it("fetches members over the gateway: every member, a name prefix, and user ids", async () => {
    const seeded = await seedMembers(app.db, guildId, [{ username: "djs_fetch_one" }, { username: "djs_fetch_two", nick: "Second" }]);
    const guild = client.guilds.cache.get(guildId)!;
    const everyone = await guild.members.fetch();
    expect([...everyone.keys()].sort()).toEqual([owner.user.id, bot.user.id, ...seeded].sort());
    const byName = await guild.members.fetch({ query: "djs_fetch", limit: 10 });
    expect([...byName.keys()].sort()).toEqual([...seeded].sort());
    const byId = await guild.members.fetch({ user: [seeded[1]!] });
    expect(byId.get(seeded[1]!)?.nickname).toBe("Second");
  });

  it("hears a guild update", async () => {
    const updated = nextEvent(client, Events.GuildUpdate, (_old, guild) => guild.id === guildId);
    await rest("PATCH", `/guilds/${guildId}`, { name: "Renamed over REST" });
    const [, guild] = await updated;
    expect(guild.name).toBe("Renamed over REST");
  });

  it("hears a channel created, updated and deleted", async () => {
    const created = nextEvent(client, Events.ChannelCreate, (channel) => channel.guildId === guildId && channel.name === "announcements");
    const channel = await rest<{ id: string }>("POST", `/guilds/${guildId}/channels`, { name: "announcements", type: ChannelType.GuildText });
    expect((await created)[0].id).toBe(channel.id);

    const updated = nextEvent(client, Events.ChannelUpdate, (_old, next) => next.id === channel.id);
    await rest("PATCH", `/channels/${channel.id}`, { name: "news" });
    const [, next] = await updated;
    expect("name" in next && next.name).toBe("news");

    const deleted = nextEvent(client, Events.ChannelDelete, (gone) => gone.id === channel.id);
    await rest("DELETE", `/channels/${channel.id}`);
    await deleted;
    expect(client.channels.cache.has(channel.id)).toBe(false);
  });

  it("hears a role created, updated and deleted", async () => {
    const created = nextEvent(client, Events.GuildRoleCreate, (role) => role.guild.id === guildId && role.name === "Moderators");
    const role = await rest<{ id: string }>("POST", `/guilds/${guildId}/roles`, { name: "Moderators" });
    expect((await created)[0].id).toBe(role.id);

    const updated = nextEvent(client, Events.GuildRoleUpdate, (_old, next) => next.id === role.id);
    await rest("PATCH", `/guilds/${guildId}/roles/${role.id}`, { name: "Mods", color: 0x3498db });
    const [, next] = await updated;
    expect([next.name, next.color]).toEqual(["Mods", 0x3498db]);

    const deleted = nextEvent(client, Events.GuildRoleDelete, (gone) => gone.id === role.id);
    await rest("DELETE", `/guilds/${guildId}/roles/${role.id}`);
    await deleted;
  });

  it("hears a member added, updated, removed, and a ban", async () => {
    const { user } = await makeUser(app.db);
    const accessToken = await issueBearerToken(
      { db: app.db, actor: null },
      { userId: user.id, applicationId: owner.application.id, scopes: ["identify", "guilds.join"] },
    );

    const added = nextEvent(client, Events.GuildMemberAdd, (member) => member.id === user.id);
    await rest("PUT", `/guilds/${guildId}/members/${user.id}`, { access_token: accessToken });
    expect((await added)[0].guild.id).toBe(guildId);

    const updated = nextEvent(client, Events.GuildMemberUpdate, (_old, member) => member.id === user.id);
    await rest("PATCH", `/guilds/${guildId}/members/${user.id}`, { nick: "Newcomer" });
    expect((await updated)[1].nickname).toBe("Newcomer");

    const removed = nextEvent(client, Events.GuildMemberRemove, (member) => member.id === user.id);
    await rest("DELETE", `/guilds/${guildId}/members/${user.id}`);
    await removed;

    const banned = nextEvent(client, Events.GuildBanAdd, (ban) => ban.user.id === user.id);
    await rest("PUT", `/guilds/${guildId}/bans/${user.id}`, {});
    expect((await banned)[0].guild.id).toBe(guildId);
  });

  it("hears an invite created and deleted", async () => {
    const created = nextEvent(client, Events.InviteCreate, (invite) => invite.channelId === channelId);
    const invite = await rest<{ code: string }>("POST", `/channels/${channelId}/invites`, { max_age: 0, unique: true });
    expect((await created)[0].code).toBe(invite.code);

    const deleted = nextEvent(client, Events.InviteDelete, (gone) => gone.code === invite.code);
    await rest("DELETE", `/invites/${invite.code}`);
    await deleted;
  });

  it("hears webhooks updated in a channel", async () => {
    const updated = nextEvent(client, Events.WebhooksUpdate, (channel) => channel.id === channelId);
    await rest("POST", `/channels/${channelId}/webhooks`, { name: "Deploys" });
    await updated;
  });

  it("hears a message created, edited and deleted, with its content", async () => {
    const created = nextEvent(client, Events.MessageCreate, (message) => message.channelId === channelId);
    const message = await rest<{ id: string }>("POST", `/channels/${channelId}/messages`, { content: "Release 1.4 is out" });
    const [received] = await created;
    expect([received.id, received.content, received.author.id]).toEqual([message.id, "Release 1.4 is out", owner.user.id]);

    const edited = nextEvent(client, Events.MessageUpdate, (_old, next) => next.id === message.id);
    await rest("PATCH", `/channels/${channelId}/messages/${message.id}`, { content: "Release 1.4.1 is out" });
    expect((await edited)[1].content).toBe("Release 1.4.1 is out");

    const deleted = nextEvent(client, Events.MessageDelete, (gone) => gone.id === message.id);
    await rest("DELETE", `/channels/${channelId}/messages/${message.id}`);
    await deleted;
  });

  it("hears a thread created", async () => {
    const created = nextEvent(client, Events.ThreadCreate, (thread) => thread.parentId === channelId);
    const thread = await rest<{ id: string }>("POST", `/channels/${channelId}/threads`, { name: "Release notes", type: ChannelType.PublicThread });
    const [received] = await created;
    expect([received.id, received.name]).toEqual([thread.id, "Release notes"]);
  });

  it("gets a guild when it is added to one, and loses it when removed", async () => {
    const guild = await makeGuild(app.db, owner.actor);
    const joined = nextEvent(client, Events.GuildCreate, (g) => g.id === guild.id);
    await addMember(app.db, guild.id, bot.user.id);
    expect((await joined)[0].name).toBe(guild.name);
    expect(client.guilds.cache.has(guild.id)).toBe(true);

    const left = nextEvent(client, Events.GuildDelete, (g) => g.id === guild.id);
    await rest("DELETE", `/guilds/${guild.id}/members/${bot.user.id}`);
    await left;
    expect(client.guilds.cache.has(guild.id)).toBe(false);
  });

  it("without MESSAGE_CONTENT sees someone else's message with empty content", async () => {
    const reader = await makeBot(app.db);
    await addMember(app.db, guildId, reader.user.id);
    const readerClient = await loginClient(reader.token, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    const seen = nextEvent(readerClient, Events.MessageCreate, (message) => message.channelId === channelId);
    const withContent = nextEvent(client, Events.MessageCreate, (message) => message.channelId === channelId);
    const message = await rest<{ id: string }>("POST", `/channels/${channelId}/messages`, { content: "Only for the content intent" });
    const [[received], [full]] = await Promise.all([seen, withContent]);
    expect(received.id).toBe(message.id);
    expect(received.content).toBe("");
    expect(full.content).toBe("Only for the content intent");
  });

  it("fetches a user (10013 for none), shows another bot that it is typing, and changes its own name and avatar", async () => {
    const fetched = await client.users.fetch(owner.user.id, { force: true });
    expect([fetched.id, fetched.username, fetched.bot]).toEqual([owner.user.id, owner.user.username, true]);
    const unknown = await client.users.fetch("123456789012345678").catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(DiscordAPIError);
    expect((unknown as DiscordAPIError).code).toBe(10013);

    // The owner's bot watches typing; the bot awaits sendTyping before it answers, as bots do.
    const watcher = await loginClient(owner.token, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessageTyping]);
    const typing = nextEvent(watcher, Events.TypingStart, (started) => started.user.id === bot.user.id);
    await (client.channels.cache.get(channelId) as TextChannel).sendTyping();
    const [started] = await typing;
    expect([started.channel.id, started.guild?.id]).toEqual([channelId, guildId]);

    const renamed = await client.user!.setUsername("Renamed Helper");
    expect(renamed.username).toBe("Renamed Helper");
    const pictured = await client.user!.setAvatar(PNG);
    expect(pictured.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect(await rest<{ username: string; avatar: string }>("GET", `/users/${bot.user.id}`)).toMatchObject({
      username: "Renamed Helper",
      avatar: pictured.avatar,
    });
  });
});
