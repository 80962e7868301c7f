import { ApplicationCommandType, ApplicationFlags, ChannelType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { issueBearerToken } from "~/server/applications/application.service.ts";
import { runChange } from "~/server/events/change.ts";
import { InternalEvents } from "~/server/events/event-map.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { MISSING_ACCESS } from "~/test/member-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { GLOBAL_SCOPE } from "./command.dto.ts";

const app = useTestApp();

const BAN = {
  name: "ban",
  description: "Bans a member",
  default_member_permissions: "4",
  options: [
    { type: 6, name: "user", description: "Who", required: true },
    { type: 3, name: "reason", description: "Why", name_localizations: { de: "grund" } },
  ],
  name_localizations: { de: "bannen", "en-GB": "banish" },
};

/** An application whose bot is in a guild a person owns, with the bot's client. */
async function setup() {
  const app_ = await makeBot(app.db);
  const owner = await makeUser(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  await addMember(app.db, guild.id, app_.user.id);
  const api = app.as(bot(app_.token));
  const applicationId = app_.application.id;
  return {
    ...app_,
    applicationId,
    guild,
    owner,
    api,
    global: `/applications/${applicationId}/commands`,
    local: `/applications/${applicationId}/guilds/${guild.id}/commands`,
  };
}

/** `count` stored commands of one type in a scope, written as an operator would: quicker than as many requests. */
async function seedCommands(applicationId: string, scope: string, type: number, count: number) {
  await app.db.applicationCommand.createMany({
    data: Array.from({ length: count }, (_, i) => {
      const id = newId();
      const definition = {
        name_localizations: null,
        description: type === 1 ? "seeded" : "",
        description_localizations: null,
        options: [],
        default_member_permissions: null,
        default_permission: true,
        nsfw: false,
      };
      return {
        id,
        applicationId,
        scope,
        guildId: scope === GLOBAL_SCOPE ? null : scope,
        type,
        name: `seeded-${i}`,
        definition: JSON.stringify(definition),
        version: id,
      };
    }),
  });
}

const fieldCode = (body: any, ...path: (string | number)[]) => {
  let node = body.errors;
  for (const key of path) node = node?.[key];
  return node?._errors?.[0]?.code;
};

describe("global commands", () => {
  it("creates one (201) as the platform answers it; the same name and type again overwrites it in place (200, same id, new version)", async () => {
    const { api, global, applicationId } = await setup();
    const created = await api.post(global, BAN);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      application_id: applicationId,
      version: expect.any(String),
      default_member_permissions: "4",
      type: ApplicationCommandType.ChatInput,
      name: "ban",
      name_localizations: { de: "bannen", "en-GB": "banish" },
      description: "Bans a member",
      description_localizations: null,
      dm_permission: true,
      contexts: null,
      integration_types: [0],
      default_permission: true,
      nsfw: false,
      options: [
        { type: 6, name: "user", description: "Who", required: true },
        { type: 3, name: "reason", description: "Why", name_localizations: { de: "grund" } },
      ],
    });
    const again = await api.post(global, { ...BAN, description: "Bans someone" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: created.body.id, description: "Bans someone" });
    expect(again.body.version).not.toBe(created.body.version);
    // An identical upsert is no change: the version stays.
    expect((await api.post(global, { ...BAN, description: "Bans someone" })).body.version).toBe(again.body.version);
    // A user command may share the name: its own type.
    const user = await api.post(global, { type: 2, name: "ban" });
    expect(user.status).toBe(201);
    expect(user.body).toMatchObject({ type: 2, name: "ban", description: "" });
    expect((await api.get(global)).body.map((command: any) => command.id)).toEqual([created.body.id, user.body.id]);
  });

  it("reads one, edits it (any subset; a new version), deletes it (204, then 10063)", async () => {
    const { api, global } = await setup();
    const { id, version } = (await api.post(global, BAN)).body;
    expect((await api.get(`${global}/${id}`)).body).toMatchObject({ id, name: "ban", name_localizations: { de: "bannen", "en-GB": "banish" } });
    const edited = await api.patch(`${global}/${id}`, { description: "Removes a member", default_member_permissions: null });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id, description: "Removes a member", default_member_permissions: null, options: BAN.options });
    expect(edited.body.version).not.toBe(version);
    // The merged command is checked whole: a name a chat command may not have.
    const refused = await api.patch(`${global}/${id}`, { name: "Ban" });
    expect([refused.status, refused.body.code, fieldCode(refused.body, "name")]).toEqual([400, 50035, "APPLICATION_COMMAND_INVALID_NAME"]);
    expect((await api.delete(`${global}/${id}`)).status).toBe(204);
    const gone = await api.get(`${global}/${id}`);
    expect([gone.status, gone.body]).toEqual([404, { code: 10063, message: "Unknown application command" }]);
    expect((await api.patch(`${global}/${id}`, { description: "x" })).status).toBe(404);
    expect((await api.delete(`${global}/${id}`)).status).toBe(404);
  });

  it("lists with the requester's localized names, or with every localization when asked", async () => {
    const { api, global } = await setup();
    await api.post(global, BAN);
    const german = (await api.get(global, { headers: { "x-discord-locale": "de" } })).body[0];
    expect(german).toMatchObject({ name: "ban", name_localized: "bannen" });
    expect(german.options[1]).toMatchObject({ name: "reason", name_localized: "grund" });
    expect(german).not.toHaveProperty("name_localizations");
    // en-US falls back to en-GB, as on the platform; a locale without a text has no *_localized.
    expect((await api.get(global, { headers: { "accept-language": "en-US,en;q=0.9" } })).body[0]).toMatchObject({ name_localized: "banish" });
    expect((await api.get(global, { headers: { "x-discord-locale": "fr" } })).body[0]).not.toHaveProperty("name_localized");
    const whole = (await api.get(global, { query: { with_localizations: "true" } })).body[0];
    expect(whole).toMatchObject({ name_localizations: { de: "bannen", "en-GB": "banish" } });
    expect(whole).not.toHaveProperty("name_localized");
  });

  it("sets the application's command badge while it has global commands", async () => {
    const { api, global } = await setup();
    const flags = async () => (await api.get("/applications/@me")).body.flags as number;
    expect((await flags()) & ApplicationFlags.ApplicationCommandBadge).toBe(0);
    const { id } = (await api.post(global, BAN)).body;
    expect((await flags()) & ApplicationFlags.ApplicationCommandBadge).toBe(ApplicationFlags.ApplicationCommandBadge);
    await api.delete(`${global}/${id}`);
    expect((await flags()) & ApplicationFlags.ApplicationCommandBadge).toBe(0);
  });

  it("a rename onto another command of the type is 40041", async () => {
    const { api, global } = await setup();
    await api.post(global, BAN);
    const { id } = (await api.post(global, { name: "kick", description: "Kicks" })).body;
    const clash = await api.patch(`${global}/${id}`, { name: "ban" });
    expect([clash.status, clash.body]).toEqual([400, { code: 40041, message: "An application command with that name already exists" }]);
  });
});

describe("who reaches a registry", () => {
  it("its own bot, or its client-credentials Bearer token with applications.commands.update; another application's id is 20012", async () => {
    const { api, global, application, guild } = await setup();
    const other = await makeBot(app.db);
    const foreign = await app.as(bot(other.token)).get(global);
    expect([foreign.status, foreign.body.code]).toEqual([403, 20012]);
    expect((await app.as(bot(other.token)).post(`/applications/${application.id}/guilds/${guild.id}/commands`, BAN)).body.code).toBe(20012);

    const withScope = await issueBearerToken(
      { db: app.db, actor: null },
      { userId: application.ownerId, applicationId: application.id, scopes: ["applications.commands.update"] },
    );
    const created = await app.as(bearer(withScope)).post(global, BAN);
    expect(created.status).toBe(201);
    expect((await api.get(global, { query: { with_localizations: "true" } })).body).toEqual([created.body]);
    const without = await issueBearerToken({ db: app.db, actor: null }, { userId: application.ownerId, applicationId: application.id, scopes: ["identify"] });
    const refused = await app.as(bearer(without)).get(global);
    expect([refused.status, refused.body]).toEqual([403, MISSING_ACCESS]);
  });

  it("guild commands only where the application was installed with applications.commands (50001 elsewhere)", async () => {
    const { api, local, applicationId, owner, guild } = await setup();
    const created = await api.post(local, BAN);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ guild_id: guild.id, name: "ban" });
    expect(created.body).not.toHaveProperty("dm_permission");
    expect(created.body).not.toHaveProperty("integration_types");
    // Global and guild registries are apart.
    expect((await api.get(`/applications/${applicationId}/commands`)).body).toEqual([]);
    const elsewhere = await makeGuild(app.db, owner.actor);
    const refused = await api.get(`/applications/${applicationId}/guilds/${elsewhere.id}/commands`);
    expect([refused.status, refused.body]).toEqual([403, MISSING_ACCESS]);
    // An installation whose scopes lack it (an incoming webhook's) holds no commands either.
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.integration.updateMany({ where: { guildId: guild.id, applicationId }, data: { scopes: "webhook.incoming" } }),
    );
    expect((await api.get(local)).status).toBe(403);
  });

  it("an entry point command is global only, and only for an application with Activities (EMBEDDED), one at most", async () => {
    const { api, local, global, applicationId } = await setup();
    const refused = await api.post(local, { type: 4, name: "launch" });
    expect([refused.status, fieldCode(refused.body, "type")]).toEqual([400, "BASE_TYPE_CHOICES"]);
    const noActivities = await api.post(global, { type: 4, name: "launch" });
    expect([noActivities.status, fieldCode(noActivities.body, "type")]).toEqual([400, "APPLICATION_COMMAND_TYPE_INVALID"]);
    expect(fieldCode((await api.put(global, [BAN, { type: 4, name: "launch" }])).body, 1, "type")).toBe("APPLICATION_COMMAND_TYPE_INVALID");
    await runChange({ db: app.db, actor: null }, async ({ tx, emit }) => {
      await tx.application.update({ where: { id: applicationId }, data: { flags: ApplicationFlags.Embedded } });
      await emit(InternalEvents.ApplicationUpdated, { application_id: applicationId });
    });
    const launch = await api.post(global, { type: 4, name: "launch" });
    expect(launch.status).toBe(201);
    expect(launch.body).toMatchObject({ type: 4, name: "launch", handler: 1 });
    expect((await api.post(global, { type: 4, name: "play" })).body.code).toBe(30032);
  });
});

describe("bulk overwrite", () => {
  it("keeps the ids it matches (by id, else by name and type), deletes the rest and creates the new, all or nothing", async () => {
    const { api, global } = await setup();
    const ban = (await api.post(global, BAN)).body;
    const kick = (await api.post(global, { name: "kick", description: "Kicks" })).body;
    const report = (await api.post(global, { type: 3, name: "Report" })).body;
    const put = await api.put(global, [
      { ...BAN, description: "Bans, again" },
      // Matched by id and renamed.
      { id: kick.id, name: "boot", description: "Kicks" },
      { name: "warn", description: "Warns" },
    ]);
    expect(put.status).toBe(200);
    const [kept, renamed, fresh] = put.body;
    expect(kept).toMatchObject({ id: ban.id, description: "Bans, again" });
    expect(renamed).toMatchObject({ id: kick.id, name: "boot" });
    expect(fresh.id).not.toBe(report.id);
    expect((await api.get(`${global}/${report.id}`)).status).toBe(404);
    // A bot setting the same list at every start changes nothing.
    const same = await api.put(global, [
      { ...BAN, description: "Bans, again" },
      { name: "boot", description: "Kicks" },
      { name: "warn", description: "Warns" },
    ]);
    expect(same.body.map((command: any) => [command.id, command.version])).toEqual(put.body.map((command: any) => [command.id, command.version]));

    // Two commands swapping names keep their ids.
    const swapped = (
      await api.put(global, [
        { id: ban.id, name: "warn", description: "W" },
        { id: fresh.id, name: "ban", description: "B" },
      ])
    ).body;
    expect(swapped.map((command: any) => [command.id, command.name])).toEqual([
      [ban.id, "warn"],
      [fresh.id, "ban"],
    ]);

    // A bad item refuses the whole list, with its index in the error's path.
    const refused = await api.put(global, [
      { name: "ok", description: "fine" },
      { name: "bad", description: "x", options: [{ type: 3, name: "Upper", description: "y" }] },
    ]);
    expect([refused.status, fieldCode(refused.body, 1, "options", 0, "name")]).toEqual([400, "APPLICATION_COMMAND_INVALID_NAME"]);
    const duplicate = await api.put(global, [BAN, BAN]);
    expect(fieldCode(duplicate.body, 1, "name")).toBe("APPLICATION_COMMANDS_DUPLICATE_NAME");
    expect((await api.get(global)).body.map((command: any) => command.name)).toEqual(["warn", "ban"]);
    // An empty list clears the registry.
    expect((await api.put(global, [])).body).toEqual([]);
    expect((await api.get(global)).body).toEqual([]);
  });
});

describe("limits", () => {
  it("100 chat input, 15 user and 15 message commands a scope (30032); a bulk past them changes nothing", async () => {
    const { api, global, local, applicationId, guild } = await setup();
    await seedCommands(applicationId, GLOBAL_SCOPE, 1, 99);
    expect((await api.post(global, BAN)).status).toBe(201);
    const full = await api.post(global, { name: "one-more", description: "x" });
    expect([full.status, full.body]).toEqual([400, { code: 30032, message: "Maximum number of application commands reached" }]);
    // The upsert of an existing one is no new command.
    expect((await api.post(global, { ...BAN, description: "still fits" })).status).toBe(200);

    await seedCommands(applicationId, guild.id, ApplicationCommandType.User, 14);
    expect((await api.post(local, { type: 2, name: "Profile" })).status).toBe(201);
    expect((await api.post(local, { type: 2, name: "Avatar" })).body.code).toBe(30032);
    expect((await api.post(local, { type: 3, name: "Quote" })).status).toBe(201);
    const tooMany = Array.from({ length: 16 }, (_, i) => ({ type: 3, name: `Message ${i}` }));
    expect((await api.put(local, tooMany)).body.code).toBe(30032);
    expect((await api.get(local)).body).toHaveLength(16);
  });

  it("200 new commands a day per scope (30034); overwriting or keeping one spends none", async () => {
    const { api, global, applicationId } = await setup();
    await app.db.applicationCommandCreate.createMany({
      data: Array.from({ length: 199 }, () => ({ id: newId(), applicationId, scope: GLOBAL_SCOPE, createdAt: new Date() })),
    });
    // Creates older than a day no longer count.
    await app.db.applicationCommandCreate.create({
      data: { id: newId(), applicationId, scope: GLOBAL_SCOPE, createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) },
    });
    const { id } = (await api.post(global, BAN)).body;
    const spent = await api.post(global, { name: "kick", description: "Kicks" });
    expect([spent.status, spent.body]).toEqual([400, { code: 30034, message: "Maximum number of daily application command creates has been reached (200)" }]);
    expect((await api.post(global, { ...BAN, description: "edited" })).status).toBe(200);
    expect((await api.patch(`${global}/${id}`, { description: "again" })).status).toBe(200);
    expect((await api.put(global, [BAN])).status).toBe(200);
    expect((await api.put(global, [BAN, { name: "kick", description: "Kicks" }])).body.code).toBe(30034);
  });
});

describe("validation through REST", () => {
  it("answers the platform's 50035 paths and codes", async () => {
    const { api, global } = await setup();
    const cases: [unknown, (string | number)[], string][] = [
      [{ name: "Ban", description: "x" }, ["name"], "APPLICATION_COMMAND_INVALID_NAME"],
      [{ name: "ban" }, ["description"], "BASE_TYPE_REQUIRED"],
      [{ name: "x".repeat(33), description: "x" }, ["name"], "BASE_TYPE_BAD_LENGTH"],
      [
        {
          name: "ban",
          description: "x",
          options: [
            { type: 3, name: "a", description: "a" },
            { type: 3, name: "b", description: "b", required: true },
          ],
        },
        ["options", 1],
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
      ],
      [
        { name: "ban", description: "x", options: [{ type: 7, name: "where", description: "w", channel_types: [ChannelType.GuildText, 99] }] },
        ["options", 0, "channel_types", 1],
        "BASE_TYPE_CHOICES",
      ],
    ];
    for (const [body, path, code] of cases) {
      const answer = await api.post(global, body);
      expect([answer.status, answer.body.code, fieldCode(answer.body, ...path)], JSON.stringify(body)).toEqual([400, 50035, code]);
    }
    const size = await api.post(global, {
      name: "big",
      description: "d".repeat(100),
      options: Array.from({ length: 25 }, (_, i) => ({
        type: 3,
        name: `o${i}`,
        description: "x".repeat(100),
        choices: Array.from({ length: 25 }, (_, j) => ({ name: `c${j}`.padEnd(100, "c"), value: `v${j}` })),
      })),
    });
    expect([size.status, size.body.errors?._errors?.[0]?.code]).toEqual([400, "APPLICATION_COMMAND_TOO_LARGE"]);
    expect((await api.get(global)).body).toEqual([]);
  });
});
