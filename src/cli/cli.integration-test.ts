import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ApplicationFlags, ChannelType, GuildFeature } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { verifyPassword } from "~/server/auth/password.ts";
import { previewPrune } from "~/server/members/prune.service.ts";
import { readGuildIntegrations } from "~/server/integrations/integration.service.ts";
import { authenticate } from "~/server/auth/tokens.service.ts";
import { DEMO_STREAM_NAME } from "~/server/seed/demo-integrations.ts";
import { DEMO_APP_NAME, DEMO_GUILD_NAME, DEMO_PASSWORD, DEMO_USER } from "~/server/seed/demo-seed.ts";
import { makeUser } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { createEmptyDatabase } from "~/test/test-db.ts";
import { runCliInProcess, type CliRun } from "~/test/cli-in-process.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX = join(ROOT, "node_modules", ".bin", "tsx");

const app = useTestApp();

/** Runs `npm run cli -- ...args` on the test database. */
function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCliInProcess(args, { DATABASE_URL: app.url, ...env });
}

async function succeeds(args: string[], env?: Record<string, string>): Promise<string> {
  const run = await cli(args, env);
  expect(run.stderr, `stderr of cli ${args.join(" ")}`).toBe("");
  expect(run.code).toBe(0);
  return run.stdout;
}

/** Every privileged intent flag, approved or limited. */
const PRIVILEGED_FLAGS =
  ApplicationFlags.GatewayGuildMembers |
  ApplicationFlags.GatewayGuildMembersLimited |
  ApplicationFlags.GatewayPresence |
  ApplicationFlags.GatewayPresenceLimited |
  ApplicationFlags.GatewayMessageContent |
  ApplicationFlags.GatewayMessageContentLimited;

const BOOTSTRAP_KEYS = ["base_url", "application_id", "bot_user_id", "bot_token", "user_id", "user_bearer", "guild_id", "client_secret"];

describe("bootstrap --json", () => {
  it("prints one JSON object whose bot token owns the guild and whose bearer token belongs to the user", async () => {
    const stdout = await succeeds(["bootstrap", "--json"], { PUBLIC_BASE_URL: "http://guildhall.example:8080/" });
    const result = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(result).sort()).toEqual([...BOOTSTRAP_KEYS].sort());
    expect(result.base_url).toBe("http://guildhall.example:8080/api");

    const botActor = await authenticate(app.db, `Bot ${result.bot_token}`);
    expect(botActor).toMatchObject({ kind: "bot", userId: result.bot_user_id, applicationId: result.application_id });
    const guild = await app.as(bot(result.bot_token!)).get(`/guilds/${result.guild_id}`);
    expect(guild.status).toBe(200);
    expect(guild.body.owner_id).toBe(result.bot_user_id);

    const userActor = await authenticate(app.db, `Bearer ${result.user_bearer}`);
    expect(userActor).toMatchObject({ kind: "bearer", userId: result.user_id, applicationId: result.application_id });
    expect([...userActor!.scopes].sort()).toEqual(["guilds", "guilds.join", "identify", "sdk.social_layer"]);
    const me = await app.as(bearer(result.user_bearer!)).get("/users/@me");
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(result.user_id);
    expect(me.body.bot).toBeFalsy();

    // The client secret works at the token endpoint (client credentials, HTTP Basic).
    const basic = Buffer.from(`${result.application_id}:${encodeURIComponent(result.client_secret!)}`).toString("base64");
    const token = await app.as(`Basic ${basic}`).post("/oauth2/token", undefined, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      rawBody: "grant_type=client_credentials&scope=identify",
    });
    expect(token.status).toBe(200);
    expect(token.body.token_type).toBe("Bearer");
  });

  it("makes fresh credentials each time and leaves the earlier ones working", async () => {
    const first = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    const second = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    expect(first.base_url).toBe("http://127.0.0.1:3000/api");
    for (const key of BOOTSTRAP_KEYS.filter((k) => k !== "base_url")) expect(second[key], key).not.toBe(first[key]);
    expect((await app.as(bot(first.bot_token!)).get(`/guilds/${first.guild_id}`)).status).toBe(200);
    expect((await app.as(bearer(first.user_bearer!)).get("/users/@me")).status).toBe(200);
    // Each bot sees its own guild only.
    expect((await app.as(bot(second.bot_token!)).get(`/guilds/${first.guild_id}`)).status).toBe(403);
  });

  it("prints the same readably without --json", async () => {
    const stdout = await succeeds(["bootstrap"]);
    expect(() => JSON.parse(stdout)).toThrow();
    const token = /Bot token\s+(\S+)/.exec(stdout)?.[1];
    const guildId = /Guild id\s+(\d+)/.exec(stdout)?.[1];
    expect((await app.as(bot(token!)).get(`/guilds/${guildId}`)).status).toBe(200);
  });
});

describe("bootstrap --intents", () => {
  it("gives the new bot no privileged intents by default, and the limited ones asked for", async () => {
    const plain = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    const plainApi = app.as(bot(plain.bot_token!));
    expect(((await plainApi.get("/applications/@me")).body.flags as number) & PRIVILEGED_FLAGS).toBe(0);
    expect((await plainApi.get(`/guilds/${plain.guild_id}/members`)).body.code).toBe(50001);

    const asked = JSON.parse(await succeeds(["bootstrap", "--json", "--intents", "guild_members, MESSAGE_CONTENT"])) as Record<string, string>;
    const api = app.as(bot(asked.bot_token!));
    expect(((await api.get("/applications/@me")).body.flags as number) & PRIVILEGED_FLAGS).toBe(
      ApplicationFlags.GatewayGuildMembersLimited | ApplicationFlags.GatewayMessageContentLimited,
    );
    const members = await api.get(`/guilds/${asked.guild_id}/members`);
    expect(members.status).toBe(200);
    expect(members.body.map((m: { user: { id: string } }) => m.user.id)).toEqual([asked.bot_user_id]);
  });

  it("names the known intents when given an unknown one, and makes nothing", async () => {
    const applications = await app.db.application.count();
    const run = await cli(["bootstrap", "--intents", "GUILD_MEMBERS,TYPING"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("Unknown intents: TYPING (known: GUILD_MEMBERS, PRESENCE, MESSAGE_CONTENT)");
    expect(await app.db.application.count()).toBe(applications);
  });
});

describe("seed", () => {
  async function rowCounts() {
    const db = app.db;
    return {
      users: await db.user.count(),
      applications: await db.application.count(),
      tokens: await db.token.count(),
      guilds: await db.guild.count(),
      roles: await db.role.count(),
      channels: await db.channel.count(),
      overwrites: await db.permissionOverwrite.count(),
      members: await db.member.count(),
      memberRoles: await db.memberRole.count(),
      events: await db.event.count(),
      auditEntries: await db.auditLogEntry.count(),
      lobbies: await db.lobby.count(),
      lobbyMessages: await db.lobbyMessage.count(),
    };
  }

  it("creates the demo data once; running it again adds nothing and points to a new token", async () => {
    const first = await succeeds(["seed"]);
    const botToken = /Bot token\s+(\S+)/.exec(first)?.[1];
    const afterFirst = await rowCounts();

    const second = await succeeds(["seed"]);
    expect(await rowCounts()).toEqual(afterFirst);
    expect(second).toContain("nothing was added");
    expect(second).not.toContain(botToken);
    const application = await app.db.application.findFirstOrThrow({ where: { name: DEMO_APP_NAME } });
    expect(second).toContain(`app token --app ${application.id}`);

    const user = await app.db.user.findUniqueOrThrow({ where: { email: DEMO_USER.email } });
    expect(user.username).toBe("demo");
    expect(await verifyPassword(DEMO_PASSWORD, user.passwordHash!)).toBe(true);

    const guild = await app.db.guild.findFirstOrThrow({
      where: { name: DEMO_GUILD_NAME },
      include: { roles: true, channels: true, members: { include: { roles: true } } },
    });
    expect(guild.ownerId).toBe(user.id);
    expect(guild.features).toContain(GuildFeature.Community);
    // New members are greeted: the welcome screen points at three of its channels.
    expect(guild.features).toContain(GuildFeature.WelcomeScreenEnabled);
    expect((JSON.parse(guild.welcomeChannels) as { channel_id: string }[]).map((c) => guild.channels.find((ch) => ch.id === c.channel_id)?.name)).toEqual([
      "rules",
      "general",
      "announcements",
    ]);
    // The widget is on, and its invite leads to #general.
    expect(guild.widgetEnabled).toBe(true);
    expect(guild.channels.find((ch) => ch.id === guild.widgetChannelId)?.name).toBe("general");
    // A match lobby of the demo game, both demo users in it, linked to #general with its messages forwarded.
    const lobby = await app.db.lobby.findFirstOrThrow({ where: { applicationId: application.id }, include: { members: true, messages: true } });
    expect(guild.channels.find((ch) => ch.id === lobby.linkedChannelId)?.name).toBe("general");
    expect(lobby.members).toHaveLength(2);
    expect(lobby.messages).toHaveLength(2);
    expect(lobby.messages.every((message) => message.forwardedMessageId !== null)).toBe(true);
    const roleId = (name: string) => guild.roles.find((r) => r.name === name)!.id;
    expect(guild.roles.map((r) => r.name).sort()).toEqual(["@everyone", "Artists", "Members", "Moderators", "Streamers", "Twitch Subscriber", "Veterans"]);
    // A crowd to page, search and prune through, with bans, timeouts and one pending newcomer.
    expect(guild.members.length).toBeGreaterThan(300);
    expect(guild.features).toContain(GuildFeature.MemberVerificationGateEnabled);
    expect(guild.members.filter((m) => m.pending)).toHaveLength(1);
    expect(guild.members.filter((m) => m.communicationDisabledUntil && m.communicationDisabledUntil > new Date()).length).toBeGreaterThan(0);
    expect(await app.db.ban.count({ where: { guildId: guild.id } })).toBeGreaterThan(0);
    const preview = await previewPrune({ db: app.db, actor: dashboardActor(user.id) }, { guildId: guild.id, prune: { days: 30, include_roles: [] } });
    expect(preview.pruned).toBeGreaterThan(0);
    // Invites to look at, and a vanity URL whose public invite resolves without credentials.
    expect(await app.db.invite.count({ where: { guildId: guild.id } })).toBeGreaterThan(0);
    expect((await app.as().get("/invites/guildhall-demo", { query: { with_counts: true } })).body.guild.id).toBe(guild.id);
    // The demo bot's integration came with its joining; a Twitch one was added as the CLI adds it.
    expect(await readGuildIntegrations(app.db, guild.id)).toMatchObject([
      { type: "discord", application: { id: application.id }, user: { id: user.id } },
      { type: "twitch", name: DEMO_STREAM_NAME, user: { id: user.id } },
    ]);
    const page = await app.as(bot(botToken!)).get(`/guilds/${guild.id}/members`, { query: { limit: 1000 } });
    expect(page.body).toHaveLength(guild.members.length);
    const types = new Set(guild.channels.map((c) => c.type));
    for (const type of [ChannelType.GuildCategory, ChannelType.GuildText, ChannelType.GuildVoice, ChannelType.GuildAnnouncement]) expect(types).toContain(type);
    // Threads under their channels (one of them archived), and a voice status on General.
    const active = await app.as(bot(botToken!)).get(`/guilds/${guild.id}/threads/active`);
    expect(active.body.threads.map((t: { name: string }) => t.name).sort()).toEqual(["Ban appeals", "Release 1.2 questions", "Weekly planning"]);
    expect(guild.channels.find((c) => c.type === ChannelType.GuildVoice && c.name === "General")?.voiceStatus).toBe("Hanging out, come say hi");
    const botMember = guild.members.find((m) => m.userId === application.botUserId);
    expect(botMember?.roles.map((r) => r.roleId)).toEqual([roleId("Moderators")]);
    expect(
      guild.members
        .find((m) => m.userId === user.id)
        ?.roles.map((r) => r.roleId)
        .sort(),
    ).toEqual([roleId("Members"), roleId("Moderators")].sort());

    // The printed token is the demo bot's, and the bot can read its guild.
    const guildRead = await app.as(bot(botToken!)).get(`/guilds/${guild.id}`);
    expect(guildRead.status).toBe(200);
    expect(guildRead.body.name).toBe(DEMO_GUILD_NAME);
  });
});

describe("user, app and token create", () => {
  it("creates a user who can sign in, an application whose bot token works, and a scoped bearer token", async () => {
    const email = `Ops-${randomBytes(3).toString("hex")}@Example.test`;
    const userId = (await succeeds(["user", "create", "--username", "operator", "--email", email, "--password", "correct horse"])).trim();
    const user = await app.db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user).toMatchObject({ username: "operator", email: email.toLowerCase(), bot: false });
    expect(await verifyPassword("correct horse", user.passwordHash!)).toBe(true);

    const created = await succeeds(["app", "create", "--name", "Ops Bot", "--owner", userId, "--max-concurrency", "16"]);
    const applicationId = /Application id\s+(\d+)/.exec(created)?.[1];
    const botUserId = /Bot user id\s+(\d+)/.exec(created)?.[1];
    const botToken = /Bot token\s+(\S+)/.exec(created)?.[1];
    expect(await app.db.application.findUnique({ where: { id: applicationId } })).toMatchObject({
      name: "Ops Bot",
      ownerId: userId,
      botUserId,
      maxConcurrency: 16,
    });
    const stored = await app.db.token.findMany({ where: { applicationId } });
    expect(stored.map((t) => t.secretHash).join()).not.toContain(botToken!.split(".")[1]);
    const me = await app.as(bot(botToken!)).get("/users/@me");
    expect(me.body).toMatchObject({ id: botUserId, bot: true });

    const another = (await succeeds(["app", "token", "--app", applicationId!])).trim();
    expect(another).not.toBe(botToken);
    expect((await app.as(bot(another)).get("/users/@me")).body.id).toBe(botUserId);
    expect((await app.as(bot(botToken!)).get("/users/@me")).status).toBe(200);

    const token = (await succeeds(["token", "create", "--user", userId, "--scopes", "identify guilds", "--app", applicationId!])).trim();
    const actor = await authenticate(app.db, `Bearer ${token}`);
    expect(actor).toMatchObject({ kind: "bearer", userId, applicationId });
    expect([...actor!.scopes].sort()).toEqual(["guilds", "identify"]);
  });

  it("rejects unknown scopes with the list of valid ones and issues nothing", async () => {
    const userId = (await succeeds(["user", "create", "--username", "scoped"])).trim();
    const before = await app.db.token.count();
    const run = await cli(["token", "create", "--user", userId, "--scopes", "identify admin"]);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Unknown scope admin");
    expect(run.stderr).toContain("guilds.join");
    expect(await app.db.token.count()).toBe(before);
  });

  it("refuses an owner that does not exist", async () => {
    const run = await cli(["app", "create", "--name", "Orphan", "--owner", "12345"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("Unknown user 12345");
  });
});

describe("an unmigrated database", () => {
  it("says to run db migrate first", async () => {
    const empty = await createEmptyDatabase();
    try {
      const run = await cli(["bootstrap", "--json"], { DATABASE_URL: empty.url });
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("run `npm run cli -- db migrate` first");
    } finally {
      await empty.drop();
    }
  });
});

describe("voice join / leave", () => {
  it("puts a member in voice so a moderator can server-mute them, then disconnects them", async () => {
    const stdout = await succeeds(["bootstrap", "--json"]);
    const credentials = JSON.parse(stdout) as Record<string, string>;
    const api = app.as(bot(credentials.bot_token!));
    const channels = await api.get<{ id: string; type: number }[]>(`/guilds/${credentials.guild_id}/channels`);
    const voice = channels.body.find((channel) => channel.type === ChannelType.GuildVoice)!;
    const memberPath = `/guilds/${credentials.guild_id}/members/${credentials.bot_user_id}`;
    expect((await api.patch(memberPath, { mute: true })).body.code).toBe(40032);

    await succeeds(["voice", "join", "--user", credentials.bot_user_id!, "--channel", voice.id]);
    const muted = await api.patch(memberPath, { mute: true });
    expect(muted.status).toBe(200);
    expect(muted.body.mute).toBe(true);

    expect(await succeeds(["voice", "leave", "--user", credentials.bot_user_id!, "--guild", credentials.guild_id!])).toContain("left voice");
    expect((await api.patch(memberPath, { deaf: true })).status).toBe(400);
  });
});

describe("app intents", () => {
  // A running server hears the CLI's change through the outbox, as it would without Redis.
  let stopHearing: () => void;
  beforeAll(() => {
    stopHearing = app.runtime.events.hearOtherProcesses(50);
  });
  afterAll(() => stopHearing());

  it("approves GUILD_MEMBERS so the bot may list members at once, and withdraws it again", async () => {
    const credentials = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    const api = app.as(bot(credentials.bot_token!));
    const list = () => api.get(`/guilds/${credentials.guild_id}/members`, { query: { limit: 10 } });
    expect((await list()).body.code).toBe(50001);

    expect(await succeeds(["app", "intents", "--app", credentials.application_id!, "--approve", "guild_members"])).toMatch(/GUILD_MEMBERS\s+approved/);
    await until(async () => (await list()).status === 200);
    const listed = await list();
    expect(listed.body.map((m: { user: { id: string } }) => m.user.id)).toContain(credentials.bot_user_id);

    await succeeds(["app", "intents", "--app", credentials.application_id!, "--revoke", "GUILD_MEMBERS"]);
    await until(async () => (await list()).status === 403);
    expect((await list()).body.code).toBe(50001);
  });

  it("names the known intents when given an unknown one", async () => {
    const credentials = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    const run = await cli(["app", "intents", "--app", credentials.application_id!, "--approve", "TYPING"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("known: GUILD_MEMBERS, PRESENCE, MESSAGE_CONTENT");
  });
});

describe("app limits", () => {
  it("shows whether development rate limits apply and lifts and restores them", async () => {
    const credentials = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    const limits = ["app", "limits", "--app", credentials.application_id!];
    expect(await succeeds(limits)).toContain("Development rate limits apply");
    expect(await succeeds([...limits, "--lift"])).toContain("Production rate limits");
    expect((await app.db.application.findUniqueOrThrow({ where: { id: credentials.application_id! } })).rateLimitsLifted).toBe(true);
    expect(await succeeds([...limits, "--restore"])).toContain("Development rate limits apply");
    const both = await cli([...limits, "--lift", "--restore"]);
    expect(both.code).not.toBe(0);
    const unknown = await cli(["app", "limits", "--app", "1234567890123"]);
    expect(unknown.stderr).toContain("Unknown application 1234567890123");
  });
});

describe("app obfuscation", () => {
  it("shows the channel obfuscation opt-in and switches it on and off", async () => {
    const credentials = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    const command = ["app", "obfuscation", "--app", credentials.application_id!];
    expect(await succeeds(command)).toContain("Channel obfuscation is off");
    expect(await succeeds([...command, "--on"])).toContain("Channel obfuscation is on");
    expect((await app.db.application.findUniqueOrThrow({ where: { id: credentials.application_id! } })).channelObfuscation).toBe(true);
    expect(await succeeds([...command, "--off"])).toContain("Channel obfuscation is off");
    expect((await cli([...command, "--on", "--off"])).code).not.toBe(0);
  });
});

describe("app oauth2", () => {
  it("resets the client secret once, adds and removes redirect URIs and switches the public client, with --json", async () => {
    const credentials = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    const id = credentials.application_id!;
    const changed = JSON.parse(
      await succeeds(["app", "oauth2", id, "--reset-secret", "--add-redirect", "https://game.example/callback", "--add-redirect", "mygame://auth", "--json"]),
    ) as { client_id: string; client_secret: string; redirect_uris: string[]; public_client: boolean };
    expect(changed).toMatchObject({ client_id: id, redirect_uris: ["https://game.example/callback", "mygame://auth"], public_client: false });
    expect(changed.client_secret).not.toBe(credentials.client_secret);
    const { isClientSecret } = await import("~/server/oauth2/client-settings.ts");
    const row = await app.db.application.findUniqueOrThrow({ where: { id } });
    expect(isClientSecret(row, changed.client_secret)).toBe(true);
    expect(isClientSecret(row, credentials.client_secret!)).toBe(false);

    const shown = JSON.parse(await succeeds(["app", "oauth2", id, "--remove-redirect", "mygame://auth", "--public-client", "on", "--json"])) as Record<
      string,
      unknown
    >;
    expect(shown).toEqual({ client_id: id, has_client_secret: true, redirect_uris: ["https://game.example/callback"], public_client: true });
    expect(await succeeds(["app", "oauth2", id])).toContain("public (no secret; PKCE required)");
    expect((await cli(["app", "oauth2", id, "--add-redirect", "not a uri"])).code).not.toBe(0);
    expect((await cli(["app", "oauth2", id, "--public-client", "maybe"])).code).not.toBe(0);
    expect((await cli(["app", "oauth2", "123"])).code).not.toBe(0);
  });
});

describe("integration add / list", () => {
  it("adds a Twitch integration with its managed role that the API lists, and refuses one without its user", async () => {
    const credentials = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    const guild = ["--guild", credentials.guild_id!];
    const account = ["--type", "twitch", "--name", "Cozy Streams", "--account-id", "tw-7", "--account-name", "cozy"];
    const refused = await cli(["integration", "add", ...guild, ...account]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--user: Twitch and YouTube integrations belong to a user.");

    expect(await succeeds(["integration", "add", ...guild, ...account, "--user", credentials.user_id!])).toMatch(
      /Added twitch integration \d+ "Cozy Streams" with managed role \d+/,
    );
    const listed = await app.as(bot(credentials.bot_token!)).get(`/guilds/${credentials.guild_id}/integrations`);
    expect(listed.body).toMatchObject([{ type: "twitch", name: "Cozy Streams", account: { id: "tw-7", name: "cozy" }, user: { id: credentials.user_id } }]);
    expect(await succeeds(["integration", "list", ...guild])).toContain(`${listed.body[0].id}  twitch`);
  });
});

describe("connection add / list / remove", () => {
  it("links accounts the user's connections list shows, says which a retired kind hides, and unlinks them", async () => {
    const { user, token } = await makeUser(app.db, ["identify", "connections"]);
    const api = app.as(bearer(token));
    await succeeds(["connection", "add", "--user", user.id, "--type", "github", "--id", "583231", "--name", "octocat", "--visibility", "1", "--friend-sync"]);
    await succeeds(["connection", "add", "--user", user.id, "--type", "bungie", "--id", "b-1", "--name", "guardian", "--created-at", "2026-05-01T00:00:00Z"]);
    expect((await api.get("/users/@me/connections")).body).toMatchObject([{ type: "github", id: "583231", name: "octocat", visibility: 1, friend_sync: true }]);
    const listing = await succeeds(["connection", "list", "--user", user.id]);
    expect(listing).toMatch(/github\s+583231\s+octocat .* listed/);
    expect(listing).toMatch(/bungie\s+b-1\s+guardian .* not listed \(retired kind\)/);

    const unknown = await cli(["connection", "add", "--user", user.id, "--type", "myspace", "--id", "1", "--name", "tom"]);
    expect(unknown.stderr).toContain("--type: Invalid option");
    await succeeds(["connection", "remove", "--user", user.id, "--type", "github", "--id", "583231"]);
    expect((await api.get("/users/@me/connections")).body).toEqual([]);
  });
});

describe("search reindex", () => {
  it("rebuilds a guild's search index, finding messages the index had lost, and names an unknown guild", async () => {
    const credentials = JSON.parse(await succeeds(["bootstrap", "--json"])) as Record<string, string>;
    await setApprovedIntents({ db: app.db, actor: null }, credentials.application_id!, ["MESSAGE_CONTENT"], true);
    const api = app.as(bot(credentials.bot_token!));
    const channels = await api.get<{ id: string; type: number }[]>(`/guilds/${credentials.guild_id}/channels`);
    const text = channels.body.find((channel) => channel.type === ChannelType.GuildText)!;
    await api.post(`/channels/${text.id}/messages`, { content: "nightly build passed" });
    const search = () => api.get(`/guilds/${credentials.guild_id}/messages/search`, { query: { content: "nightly" } });
    expect((await search()).body.total_results).toBe(1);
    await app.db.$executeRaw`DELETE FROM "MessageSearch"`;
    expect((await search()).body.total_results).toBe(0);

    expect(await succeeds(["search", "reindex", "--guild", credentials.guild_id!])).toContain("search index rebuilt (1 messages)");
    expect((await search()).body.total_results).toBe(1);

    const unknown = await cli(["search", "reindex", "--guild", "1234567890123456789"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("Unknown Guild");
  });
});

describe("user privacy", () => {
  it("shows a user's profile privacy with its effect, changes it, and names the choices for an unknown one", async () => {
    const { user } = await makeUser(app.db);
    expect(await succeeds(["user", "privacy", "--user", user.id])).toBe("everyone: Your custom status is shown to bots in every server you are in.\n");
    expect(await succeeds(["user", "privacy", "--user", user.id, "--set", "friends_and_small_servers"])).toContain("servers of up to 200 members");
    expect((await app.db.user.findUniqueOrThrow({ where: { id: user.id } })).profilePrivacy).toBe("friends_and_small_servers");
    const wrong = await cli(["user", "privacy", "--user", user.id, "--set", "nobody"]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("everyone, friends_and_small_servers, friends_only");
  });
});

describe("the process", () => {
  it("exits 0 with a command's answer on stdout, and 1 with the error alone on stderr", async () => {
    const run = (args: string[]) =>
      new Promise<CliRun>((resolve) => {
        execFile(TSX, ["src/cli/index.ts", ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: app.url } }, (error, stdout, stderr) => {
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
        });
      });
    const { user } = await makeUser(app.db);
    expect(await run(["user", "privacy", "--user", user.id])).toMatchObject({ code: 0, stderr: "", stdout: expect.stringMatching(/\n$/) });
    const refused = await run(["user", "privacy", "--user", user.id, "--set", "nobody"]);
    expect(refused).toMatchObject({ code: 1, stdout: "", stderr: expect.stringMatching(/^Error: /) });
    expect((await run(["no-such-command"])).code).toBe(1);
  });
});
