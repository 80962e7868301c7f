import { AuditLogEvent, GatewayIntentBits, PermissionFlagsBits as P, WebhookType } from "discord-api-types/v10";
import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { createApplication, createUser } from "~/server/applications/application.service.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { createTRPCContext } from "~/server/trpc/init.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { runChange } from "~/server/events/change.ts";
import { InternalEvents } from "~/server/events/event-map.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { createGuildChannel } from "~/server/channels/create-channel.service.ts";
import { addMember } from "~/test/factories.ts";
import { identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { oauth2Kit } from "~/test/oauth2-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { resetClientSecret, setRedirectUris } from "./client-settings.ts";
import { oauth2Issuer } from "./metadata.ts";
import { issueTokenPair, secretDigest } from "./grants.ts";

const app = useTestApp();
const server = useGatewayServer(app, { router: () => createEventRouter({ db: app.db }) });

const CALLBACK = "https://client.example/callback";
let counter = 0;
const unique = () => `${Date.now().toString(36)}${counter++}`;

async function person() {
  const user = await createUser(app.db, { username: `person_${unique()}` });
  return { user, caller: createCaller(createTRPCContext({ db: app.db, userId: user.id })), actor: dashboardActor(user.id) };
}

/** An application owned by a new person, with CALLBACK registered, and its settings. */
async function application(settings: { botPublic?: boolean; botRequireCodeGrant?: boolean; publicClient?: boolean } = {}) {
  const owner = await person();
  const made = await createApplication(app.db, { name: `Tool ${unique()}`, ownerId: owner.user.id });
  await runChange({ db: app.db, actor: null }, async ({ tx, emit }) => {
    await tx.application.update({ where: { id: made.application.id }, data: settings });
    await emit(InternalEvents.ApplicationUpdated, { application_id: made.application.id });
  });
  await setRedirectUris({ db: app.db, actor: null }, made.application.id, [CALLBACK]);
  return { ...made, owner };
}

/** A guild owned by a new person, with a text channel. */
async function guildOf() {
  const owner = await person();
  const guild = await createGuild({ db: app.db, actor: owner.actor }, { name: `Hall ${unique()}` });
  const channel = await createGuildChannel({ db: app.db, actor: owner.actor }, { guildId: guild.id, body: { name: "general", type: 0 } });
  return { owner, guild, channel };
}

/** The code exchanged at the token endpoint by the application as a confidential client. */
async function exchange(clientId: string, code: string) {
  const secret = await resetClientSecret({ db: app.db, actor: null }, clientId);
  return oauth2Kit(app).post("/oauth2/token", { grant_type: "authorization_code", code, redirect_uri: CALLBACK, client_id: clientId, client_secret: secret });
}

function query(params: Record<string, string>): Record<string, string> {
  return params;
}

function redirectParams(outcome: unknown): URLSearchParams {
  const { redirectTo } = outcome as { redirectTo: string };
  const url = new URL(redirectTo);
  expect(url.origin + url.pathname).toBe(CALLBACK);
  return url.hash ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
}

describe("adding a bot through OAuth2", () => {
  it("joins the bot with a managed role holding the approved permissions, its integration, audit entries, and GUILD_CREATE to the bot", async () => {
    const tool = await application();
    const { owner, guild } = await guildOf();
    const { client } = await identified(server, tool.botToken, { intents: GatewayIntentBits.Guilds });
    const asked = P.SendMessages | P.ManageMessages | P.EmbedLinks;
    const link = query({ client_id: tool.application.id, scope: "bot applications.commands", permissions: asked.toString() });

    const view = await owner.caller.oauth2.describe({ query: link });
    if (view.kind !== "consent") throw new Error(JSON.stringify(view));
    expect(view.scopes.map((scope) => scope.scope)).toEqual(["bot", "applications.commands"]);
    expect(view.bot?.permissions.map((permission) => permission.name).sort()).toEqual(["EMBED_LINKS", "MANAGE_MESSAGES", "SEND_MESSAGES"]);
    expect(view.bot?.guilds).toEqual([expect.objectContaining({ id: guild.id, denial: null })]);
    expect(view.redirectHost).toBeNull();

    // The person unticks Manage Messages.
    const approved = P.SendMessages | P.EmbedLinks;
    const outcome = await owner.caller.oauth2.approve({ query: link, choices: { guildId: guild.id, permissions: approved.toString() } });
    expect(outcome).toEqual({ done: { guild: { id: guild.id, name: guild.name } } });

    const joined = await client.dispatch("GUILD_CREATE");
    expect((joined.d as { id: string }).id).toBe(guild.id);

    const role = await app.db.role.findFirstOrThrow({ where: { guildId: guild.id, managed: true } });
    expect(role).toMatchObject({ name: tool.application.name, permissions: approved, botId: tool.botUser.id });
    const roles = await app.as(`Bot ${tool.botToken}`).get(`/guilds/${guild.id}/roles`);
    expect(roles.body).toContainEqual(
      expect.objectContaining({ id: role.id, managed: true, permissions: approved.toString(), tags: { bot_id: tool.botUser.id } }),
    );
    const member = await app.db.member.findUniqueOrThrow({
      where: { guildId_userId: { guildId: guild.id, userId: tool.botUser.id } },
      include: { roles: true },
    });
    expect(member.roles.map((each) => each.roleId)).toEqual([role.id]);

    const integrations = await owner.caller.integration.list({ guildId: guild.id });
    expect(integrations).toEqual([
      expect.objectContaining({ type: "discord", user: expect.objectContaining({ id: owner.user.id }), scopes: ["bot", "applications.commands"] }),
    ]);
    const integration = await app.db.integration.findFirstOrThrow({ where: { guildId: guild.id } });
    expect(integration.roleId).toBe(role.id);

    const audit = await app.db.auditLogEntry.findMany({ where: { guildId: guild.id, userId: owner.user.id }, orderBy: { id: "asc" } });
    const actions = audit.map((entry) => [entry.actionType, entry.targetId]);
    expect(actions).toEqual(
      expect.arrayContaining([
        [AuditLogEvent.RoleCreate, role.id],
        [AuditLogEvent.BotAdd, tool.botUser.id],
        [AuditLogEvent.IntegrationCreate, integration.id],
      ]),
    );
    const events = await app.db.event.findMany({ where: { guildId: guild.id, type: "GUILD_INTEGRATIONS_UPDATE" } });
    expect(events.length).toBeGreaterThan(0);

    const authorization = await app.db.oAuth2Authorization.findUniqueOrThrow({
      where: { applicationId_userId: { applicationId: tool.application.id, userId: owner.user.id } },
    });
    expect(authorization.scopes).toBe("bot applications.commands");
  });

  it("updates the managed role's permissions when the bot is added again", async () => {
    const tool = await application();
    const { owner, guild } = await guildOf();
    const link = query({ client_id: tool.application.id, scope: "bot", permissions: (P.SendMessages | P.EmbedLinks).toString() });
    await owner.caller.oauth2.approve({ query: link, choices: { guildId: guild.id } });
    await owner.caller.oauth2.approve({ query: link, choices: { guildId: guild.id, permissions: P.SendMessages.toString() } });
    const roles = await app.db.role.findMany({ where: { guildId: guild.id, managed: true } });
    expect(roles.map((role) => role.permissions)).toEqual([P.SendMessages]);
  });

  it("a bot added with the bot scope alone records applications.commands, so its application holds guild commands there", async () => {
    const tool = await application();
    const { owner, guild } = await guildOf();
    const commands = app.as(`Bot ${tool.botToken}`);
    const path = `/applications/${tool.application.id}/guilds/${guild.id}/commands`;
    expect((await commands.get(path)).body).toMatchObject({ code: 50001 });
    await owner.caller.oauth2.approve({ query: query({ client_id: tool.application.id, scope: "bot", permissions: "0" }), choices: { guildId: guild.id } });
    const integration = await app.db.integration.findFirstOrThrow({ where: { guildId: guild.id, applicationId: tool.application.id } });
    expect(integration.scopes).toBe("bot applications.commands");
    expect((await commands.post(path, { name: "hello", description: "Says hello" })).status).toBe(201);
  });

  it("never grants more than was asked", async () => {
    const tool = await application();
    const { owner, guild } = await guildOf();
    const link = query({ client_id: tool.application.id, scope: "bot", permissions: P.SendMessages.toString() });
    await owner.caller.oauth2.approve({ query: link, choices: { guildId: guild.id, permissions: (P.SendMessages | P.Administrator).toString() } });
    const role = await app.db.role.findFirstOrThrow({ where: { guildId: guild.id, managed: true } });
    expect(role.permissions).toBe(P.SendMessages);
  });

  it("refuses a member without Manage Guild, and does not offer them the guild", async () => {
    const tool = await application();
    const { guild } = await guildOf();
    const member = await person();
    await addMember(app.db, guild.id, member.user.id);
    const link = query({ client_id: tool.application.id, scope: "bot", permissions: "2048" });
    const view = await member.caller.oauth2.describe({ query: link });
    expect(view.kind === "consent" && view.bot?.guilds).toEqual([]);
    await expect(member.caller.oauth2.approve({ query: link, choices: { guildId: guild.id } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await app.db.member.count({ where: { guildId: guild.id, userId: tool.botUser.id } })).toBe(0);
  });

  it("lets only its owner add a private bot", async () => {
    const tool = await application({ botPublic: false });
    const { owner, guild } = await guildOf();
    const link = query({ client_id: tool.application.id, scope: "bot" });
    expect(await owner.caller.oauth2.describe({ query: link })).toMatchObject({ kind: "error", error: "access_denied" });
    await expect(owner.caller.oauth2.approve({ query: link, choices: { guildId: guild.id } })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    const ownGuild = await createGuild({ db: app.db, actor: tool.owner.actor }, { name: "Own hall" });
    expect(await tool.owner.caller.oauth2.approve({ query: link, choices: { guildId: ownGuild.id } })).toMatchObject({ done: { guild: { id: ownGuild.id } } });
  });

  it("forces the code flow when the bot requires the code grant, and stores the guild with the code", async () => {
    const tool = await application({ botRequireCodeGrant: true });
    const { owner, guild } = await guildOf();
    expect(await owner.caller.oauth2.describe({ query: query({ client_id: tool.application.id, scope: "bot", redirect_uri: CALLBACK }) })).toMatchObject({
      kind: "redirect",
    });
    const link = query({
      client_id: tool.application.id,
      scope: "bot identify",
      response_type: "code",
      redirect_uri: CALLBACK,
      state: "s1",
      permissions: "2048",
    });
    const answer = redirectParams(await owner.caller.oauth2.approve({ query: link, choices: { guildId: guild.id } }));
    expect(answer.get("state")).toBe("s1");
    expect(answer.get("iss")).toBe(oauth2Issuer());
    expect(answer.get("guild_id")).toBe(guild.id);
    expect(answer.get("permissions")).toBe("2048");
    const code = await app.db.oAuth2Code.findUniqueOrThrow({ where: { id: secretDigest(answer.get("code")!) } });
    expect(code).toMatchObject({ guildId: guild.id, redirectUri: CALLBACK, scopes: "bot identify", userId: owner.user.id });

    // The token response carries the guild the bot joined.
    const token = await exchange(tool.application.id, answer.get("code")!);
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body).toMatchObject({ token_type: "Bearer", scope: "bot identify", guild: { id: guild.id, name: guild.name } });
  });
});

describe("adding an incoming webhook through OAuth2", () => {
  it("creates an incoming webhook of the application in the chosen channel and stores it with the code", async () => {
    const tool = await application();
    const { owner, guild, channel } = await guildOf();
    const link = query({ client_id: tool.application.id, scope: "webhook.incoming", response_type: "code", redirect_uri: CALLBACK, state: "w" });
    const view = await owner.caller.oauth2.describe({ query: link });
    expect(view.kind === "consent" && view.webhook?.channels).toContainEqual(expect.objectContaining({ id: channel.id, guildId: guild.id, denial: null }));

    const answer = redirectParams(await owner.caller.oauth2.approve({ query: link, choices: { channelId: channel.id } }));
    const webhook = await app.db.webhook.findFirstOrThrow({ where: { channelId: channel.id } });
    expect(webhook).toMatchObject({ type: WebhookType.Incoming, applicationId: tool.application.id, userId: owner.user.id, name: tool.application.name });
    const code = await app.db.oAuth2Code.findUniqueOrThrow({ where: { id: secretDigest(answer.get("code")!) } });
    expect(code.webhookId).toBe(webhook.id);

    // The token response carries the webhook with its execution URL, which posts to the channel.
    const token = await exchange(tool.application.id, answer.get("code")!);
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.webhook).toMatchObject({ id: webhook.id, channel_id: channel.id, token: webhook.token });
    const url = new URL(token.body.webhook.url as string);
    expect(url.pathname).toBe(`/api/webhooks/${webhook.id}/${webhook.token}`);
    expect((await app.as().post(`/webhooks/${webhook.id}/${webhook.token}?wait=true`, { content: "hello" })).status).toBe(200);
  });

  it("refuses a channel where the person cannot manage webhooks", async () => {
    const tool = await application();
    const { guild, channel } = await guildOf();
    const member = await person();
    await addMember(app.db, guild.id, member.user.id);
    const link = query({ client_id: tool.application.id, scope: "webhook.incoming", response_type: "code", redirect_uri: CALLBACK });
    const view = await member.caller.oauth2.describe({ query: link });
    expect(view.kind === "consent" && view.webhook?.channels).toContainEqual(
      expect.objectContaining({ id: channel.id, denial: expect.stringMatching(/Manage webhooks/i) }),
    );
    await expect(member.caller.oauth2.approve({ query: link, choices: { channelId: channel.id } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await app.db.webhook.count({ where: { channelId: channel.id } })).toBe(0);
  });
});

describe("the user flows", () => {
  it("answers deny with access_denied, state and iss", async () => {
    const tool = await application();
    const { user, caller } = await person();
    const link = query({ client_id: tool.application.id, scope: "identify", response_type: "code", redirect_uri: CALLBACK, state: "d" });
    const { redirectTo } = await caller.oauth2.deny({ query: link });
    const answer = new URL(redirectTo!).searchParams;
    expect(Object.fromEntries(answer)).toEqual({ error: "access_denied", error_description: expect.any(String), state: "d", iss: oauth2Issuer() });
    expect(await app.db.oAuth2Authorization.count({ where: { userId: user.id } })).toBe(0);
  });

  it("answers the implicit grant in the fragment, without a refresh token", async () => {
    const tool = await application();
    const { caller } = await person();
    const link = query({ client_id: tool.application.id, scope: "identify", response_type: "token", redirect_uri: CALLBACK, state: "t" });
    const answer = redirectParams(await caller.oauth2.approve({ query: link }));
    expect(answer.get("token_type")).toBe("Bearer");
    expect(answer.get("expires_in")).toBe("604800");
    expect(answer.get("refresh_token")).toBeNull();
    const me = await app.as(`Bearer ${answer.get("access_token")}`).get("/users/@me");
    expect(me.status).toBe(200);
  });

  it("skips the page for prompt=none once everything asked was granted", async () => {
    const tool = await application();
    const { caller } = await person();
    const link = query({ client_id: tool.application.id, scope: "identify", response_type: "code", redirect_uri: CALLBACK, prompt: "none" });
    expect(await caller.oauth2.describe({ query: link })).toMatchObject({ kind: "consent", skipConsent: false });
    await caller.oauth2.approve({ query: link });
    expect(await caller.oauth2.describe({ query: link })).toMatchObject({ kind: "consent", skipConsent: true });
  });

  it("lists Authorized apps with what was granted, and deauthorizing revokes the tokens", async () => {
    const tool = await application();
    const { user, caller } = await person();
    expect(await caller.oauth2.authorizedApps()).toEqual([]);
    const link = query({ client_id: tool.application.id, scope: "identify guilds", response_type: "token", redirect_uri: CALLBACK });
    const token = redirectParams(await caller.oauth2.approve({ query: link })).get("access_token")!;
    expect(await caller.oauth2.authorizedApps()).toEqual([
      {
        application: { id: tool.application.id, name: tool.application.name, icon: null },
        scopes: [
          { scope: "identify", grants: expect.stringContaining("username") },
          { scope: "guilds", grants: expect.stringContaining("servers") },
        ],
        authorizedAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    await caller.oauth2.deauthorize({ applicationId: tool.application.id });
    expect(await caller.oauth2.authorizedApps()).toEqual([]);
    expect((await app.as(`Bearer ${token}`).get("/users/@me")).status).toBe(401);
    await expect(caller.oauth2.deauthorize({ applicationId: tool.application.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await app.db.event.count({ where: { type: "APPLICATION_DEAUTHORIZED", data: { contains: user.id } } })).toBe(1);
  });
});

describe("removing the application's integration", () => {
  async function installed(scope: string) {
    const tool = await application();
    const { owner, guild } = await guildOf();
    const link = query({ client_id: tool.application.id, scope, response_type: "code", redirect_uri: CALLBACK, permissions: "2048" });
    await owner.caller.oauth2.approve({ query: link, choices: { guildId: guild.id } });
    const authorization = await app.db.oAuth2Authorization.findUniqueOrThrow({
      where: { applicationId_userId: { applicationId: tool.application.id, userId: owner.user.id } },
    });
    const integration = await app.db.integration.findFirstOrThrow({ where: { guildId: guild.id, applicationId: tool.application.id } });
    return { tool, owner, guild, authorization, integration };
  }

  async function tokenWith(input: { applicationId: string; userId: string; authorizationId: string }, scopes: string[]) {
    return runChange({ db: app.db, actor: null }, ({ tx }) => issueTokenPair(tx, { ...input, scopes, refresh: true }));
  }

  it("withdraws the install scopes and revokes the tokens carrying them, keeping the rest", async () => {
    const { tool, owner, guild, authorization, integration } = await installed("bot identify");
    const ids = { applicationId: tool.application.id, userId: owner.user.id, authorizationId: authorization.id };
    const installToken = await tokenWith(ids, ["bot", "identify"]);
    const userToken = await tokenWith(ids, ["identify"]);

    await owner.caller.integration.remove({ guildId: guild.id, integrationId: integration.id });

    const after = await app.db.oAuth2Authorization.findUniqueOrThrow({ where: { id: authorization.id } });
    expect(after.scopes).toBe("identify");
    expect((await app.db.token.findUniqueOrThrow({ where: { id: installToken.accessTokenId } })).revokedAt).not.toBeNull();
    expect((await app.db.token.findUniqueOrThrow({ where: { id: userToken.accessTokenId } })).revokedAt).toBeNull();
    expect((await app.as(`Bearer ${userToken.access_token}`).get("/users/@me")).status).toBe(200);
    expect((await app.as(`Bearer ${installToken.access_token}`).get("/users/@me")).status).toBe(401);
    expect(await app.db.role.count({ where: { guildId: guild.id, managed: true } })).toBe(0);
  });

  it("deauthorizes an authorization left with no scope", async () => {
    const { tool, owner, guild, authorization, integration } = await installed("bot");
    const token = await tokenWith({ applicationId: tool.application.id, userId: owner.user.id, authorizationId: authorization.id }, ["bot"]);
    await owner.caller.integration.remove({ guildId: guild.id, integrationId: integration.id });
    expect(await app.db.oAuth2Authorization.findUnique({ where: { id: authorization.id } })).toBeNull();
    expect((await app.db.token.findUniqueOrThrow({ where: { id: token.accessTokenId } })).revokedAt).not.toBeNull();
  });
});

describe("a strict OAuth2 client library (oauth4webapi)", () => {
  async function clientSetup() {
    const tool = await application({ publicClient: true });
    const as: oauth.AuthorizationServer = {
      issuer: oauth2Issuer(),
      authorization_endpoint: `${oauth2Issuer()}/oauth2/authorize`,
      authorization_response_iss_parameter_supported: true,
    };
    const client: oauth.Client = { client_id: tool.application.id };
    return { tool, as, client };
  }

  it("accepts the code flow's redirect with PKCE, checking iss and state", async () => {
    const { as, client } = await clientSetup();
    const { caller } = await person();
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: CALLBACK,
      response_type: "code",
      scope: "identify",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();

    const { redirectTo } = (await caller.oauth2.approve({ query: Object.fromEntries(url.searchParams) })) as { redirectTo: string };
    const params = oauth.validateAuthResponse(as, client, new URL(redirectTo), state);
    const code = params.get("code")!;
    const row = await app.db.oAuth2Code.findUniqueOrThrow({ where: { id: secretDigest(code) } });
    expect(row).toMatchObject({ codeChallenge: await oauth.calculatePKCECodeChallenge(verifier), codeChallengeMethod: "S256" });

    // A redirect claiming another issuer is refused: the mix-up defence iss exists for.
    const forged = new URL(redirectTo);
    forged.searchParams.set("iss", "https://other.example");
    expect(() => oauth.validateAuthResponse(as, client, forged, state)).toThrow();

    // The same library exchanges the code as a public client, with the verifier, at the endpoint discovery names.
    const kit = oauth2Kit(app);
    const options = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: kit.serverFetch };
    const issuer = new URL(oauth2Issuer());
    const discovered = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...options }));
    const response = await oauth.authorizationCodeGrantRequest(discovered, client, oauth.None(), params, CALLBACK, verifier, options);
    const tokens = await oauth.processAuthorizationCodeResponse(discovered, client, response);
    expect(tokens).toMatchObject({ token_type: "bearer", scope: "identify", expires_in: 604800 });
    expect((await app.as(`Bearer ${tokens.access_token}`).get("/users/@me")).body.id).toBe(row.userId);
  });

  it("reads an error redirect as the authorization server's error", async () => {
    const { as, client } = await clientSetup();
    const { caller } = await person();
    const state = oauth.generateRandomState();
    // A public client without PKCE.
    const query = { client_id: client.client_id, redirect_uri: CALLBACK, response_type: "code", scope: "identify", state };
    const view = await caller.oauth2.describe({ query });
    if (view.kind !== "redirect") throw new Error(JSON.stringify(view));
    let error: unknown;
    try {
      oauth.validateAuthResponse(as, client, new URL(view.redirectTo), state);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(oauth.AuthorizationResponseError);
    expect((error as oauth.AuthorizationResponseError).error).toBe("invalid_request");
  });
});
