import {
  ApplicationCommandOptionType as O,
  ApplicationCommandPermissionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  Locale,
  PermissionFlagsBits as P,
  type APIApplicationCommand,
  type RESTPostAPIApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import {
  ContextMenuCommandBuilder,
  DiscordAPIError,
  Events,
  GatewayIntentBits as I,
  SlashCommandBuilder,
  type ApplicationCommand,
  type Client,
  type Guild,
} from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueBearerToken } from "~/server/applications/application.service.ts";
import { serializePermissions } from "~/server/permissions/permissions.ts";
import { createRole } from "~/server/roles/role.service.ts";
import { discordJsServer, nextEvent, type DiscordJsServer } from "~/test/discord-js-kit.ts";
import { addMember, makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { bearer, bot as botAuth } from "~/test/rest-client.ts";
import { startServerProcess } from "~/test/server-process.ts";
import { useTestApp } from "~/test/test-app.ts";
import { allChannelsId } from "./command-permission-rules.ts";

// A bot that registers its commands at startup with the real discord.js Client against a real
// server: what discord.js parses from each answer is what the platform would give it, and the
// REST answers it hides (statuses, error bodies) are checked beside it.

const app = useTestApp();
let djs: DiscordJsServer;
type Bot = Awaited<ReturnType<typeof makeBot>>;
type Person = Awaited<ReturnType<typeof makeUser>>;
let bot: Bot;
/** Owns the guild: may replace the bot's command permissions there. */
let owner: Person;
/** A member without Manage Guild. */
let helper: Person;
let guildId: string;
let moderatorsRoleId: string;
/** The owner's Bearer token through the bot's application, with the scope discord.js's permission edits need. */
let ownerToken: string;
let client: Client;

const guild = (): Guild => client.guilds.cache.get(guildId)!;
const api = () => app.as(botAuth(bot.token));
const globalPath = () => `/applications/${bot.application.id}/commands`;
const guildPath = () => `/applications/${bot.application.id}/guilds/${guildId}/commands`;

/** Why a promise rejected, for asserting on discord.js's errors. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** The chat command a moderation bot registers: subcommands, a group, choices, ranges and localizations. */
function modCommand() {
  return new SlashCommandBuilder()
    .setName("mod")
    .setDescription("Moderation tools")
    .setNameLocalizations({ [Locale.German]: "moderation", [Locale.French]: "modération" })
    .setDescriptionLocalizations({ [Locale.German]: "Moderationswerkzeuge" })
    .setDefaultMemberPermissions(P.KickMembers | P.BanMembers)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .addSubcommand((ban) =>
      ban
        .setName("ban")
        .setDescription("Bans a member")
        .addUserOption((user) => user.setName("user").setDescription("Who").setRequired(true))
        .addStringOption((reason) =>
          reason
            .setName("reason")
            .setDescription("Why")
            .setNameLocalizations({ [Locale.German]: "grund" })
            .addChoices({ name: "Spam", value: "spam", name_localizations: { [Locale.German]: "Werbung" } }, { name: "Abuse", value: "abuse" }),
        )
        .addIntegerOption((days) => days.setName("days").setDescription("Messages to delete, in days").setMinValue(0).setMaxValue(7)),
    )
    .addSubcommandGroup((warnings) =>
      warnings
        .setName("warnings")
        .setDescription("A member's warnings")
        .addSubcommand((list) =>
          list
            .setName("list")
            .setDescription("Lists a member's warnings")
            .addUserOption((user) => user.setName("user").setDescription("Whose").setRequired(true)),
        ),
    );
}

const userInfoCommand = () =>
  new ContextMenuCommandBuilder()
    .setName("User info")
    .setType(ApplicationCommandType.User)
    .setNameLocalizations({ [Locale.German]: "Benutzerinfo" })
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall);

const reportCommand = () =>
  new ContextMenuCommandBuilder()
    .setName("Report message")
    .setType(ApplicationCommandType.Message)
    // Administrators only, until a guild grants it with command permissions.
    .setDefaultMemberPermissions(0)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall);

const idsOf = (commands: Iterable<ApplicationCommand>) => [...commands].map((command) => command.id);
/**
 * A command's id and version as plain values: discord.js patches its cached command in place, so
 * what an earlier call returned shows the latest answer.
 */
const versionsOf = (commands: Iterable<ApplicationCommand>) => [...commands].map((command) => [command.id, command.version]);
/**
 * A builder's body as it went over the wire (its toJSON keeps unset fields as undefined keys,
 * which `equals` reads as set), typed as the raw command `equals` takes: it compares id, version
 * and the like only when given.
 */
const sent = (builder: { toJSON(): RESTPostAPIApplicationCommandsJSONBody }) => JSON.parse(JSON.stringify(builder.toJSON())) as APIApplicationCommand;

describe("a discord.js bot registering its commands", () => {
  beforeAll(async () => {
    bot = await makeBot(app.db);
    [owner, helper] = await Promise.all([makeUser(app.db), makeUser(app.db)]);
    guildId = (await makeGuild(app.db, owner.actor)).id;
    moderatorsRoleId = (
      await createRole(
        { db: app.db, actor: owner.actor },
        { guildId, body: { name: "Moderators", permissions: serializePermissions(P.KickMembers | P.BanMembers) } },
      )
    ).id;
    // Joining with the bot scope installs the application with applications.commands.
    await addMember(app.db, guildId, bot.user.id);
    await addMember(app.db, guildId, helper.user.id);
    ownerToken = await issueBearerToken(
      { db: app.db, actor: null },
      { userId: owner.user.id, applicationId: bot.application.id, scopes: ["applications.commands.permissions.update"] },
    );
    djs = discordJsServer(await startServerProcess({ DATABASE_URL: app.url, RATE_LIMIT_SCALE: "1000" }));
    client = await djs.login(bot.token, { intents: [I.Guilds] });
  }, 60_000);

  afterAll(async () => {
    await djs?.stop();
  });

  it("sees its application under the id the command routes take, its bot user's id too", async () => {
    expect(client.application!.id).toBe(bot.application.id);
    // discord.js uses the bot's user id as the application-level permissions id.
    expect(client.user!.id).toBe(bot.application.id);
    const fetched = await client.application!.fetch();
    expect(fetched.id).toBe(bot.application.id);
    const me = await api().get("/applications/@me");
    expect([me.status, me.body.id, me.body.bot.id]).toEqual([200, bot.application.id, bot.application.id]);
  });

  it("sets its global commands at startup; the same list again keeps every id and version, and a rename matched by id keeps the id", async () => {
    const commands = client.application!.commands;
    const mod = sent(modCommand());
    const userInfo = sent(userInfoCommand());
    const report = sent(reportCommand());
    const set = await commands.set([modCommand(), userInfoCommand(), reportCommand()]);
    expect([...set.values()].map((command) => [command.name, command.type, command.guildId, command.applicationId])).toEqual([
      ["mod", ApplicationCommandType.ChatInput, null, bot.application.id],
      ["User info", ApplicationCommandType.User, null, bot.application.id],
      ["Report message", ApplicationCommandType.Message, null, bot.application.id],
    ]);
    const [modCmd, userCmd, reportCmd] = [...set.values()] as [ApplicationCommand, ApplicationCommand, ApplicationCommand];
    const firstVersions = versionsOf(set.values());
    expect(modCmd.nameLocalizations).toEqual({ de: "moderation", fr: "modération" });
    expect(modCmd.descriptionLocalizations).toEqual({ de: "Moderationswerkzeuge" });
    expect(modCmd.defaultMemberPermissions?.toArray()).toEqual(["KickMembers", "BanMembers"]);
    expect([modCmd.contexts, modCmd.integrationTypes, modCmd.nsfw]).toEqual([[InteractionContextType.Guild], [ApplicationIntegrationType.GuildInstall], false]);
    expect(modCmd.options.map((option) => [option.type, option.name])).toEqual([
      [O.Subcommand, "ban"],
      [O.SubcommandGroup, "warnings"],
    ]);
    const ban = modCmd.options[0]!;
    expect(ban.type === O.Subcommand && ban.options?.map((option) => [option.type, option.name, option.required])).toEqual([
      [O.User, "user", true],
      [O.String, "reason", false],
      [O.Integer, "days", false],
    ]);
    expect(ban).toMatchObject({
      options: [
        {},
        {
          nameLocalizations: { de: "grund" },
          choices: [
            { name: "Spam", value: "spam", nameLocalizations: { de: "Werbung" } },
            { name: "Abuse", value: "abuse" },
          ],
        },
        { minValue: 0, maxValue: 7 },
      ],
    });
    expect(modCmd.options[1]).toMatchObject({ options: [{ type: O.Subcommand, name: "list", options: [{ type: O.User, name: "user", required: true }] }] });
    expect([userCmd.description, userCmd.nameLocalizations, userCmd.defaultMemberPermissions]).toEqual(["", { de: "Benutzerinfo" }, null]);
    expect(reportCmd.defaultMemberPermissions?.bitfield).toBe(0n);
    // What a bot compares before registering again: each command reads back as it was sent.
    expect([modCmd.equals(mod, true), userCmd.equals(userInfo, true), reportCmd.equals(report, true)]).toEqual([true, true, true]);

    const listed = await api().get(globalPath(), { query: { with_localizations: "true" } });
    expect(listed.status).toBe(200);
    expect(listed.body.map((command: { id: string }) => command.id)).toEqual([...set.keys()]);
    expect(listed.body[2]).toEqual({
      id: reportCmd.id,
      application_id: bot.application.id,
      version: reportCmd.version,
      default_member_permissions: "0",
      type: ApplicationCommandType.Message,
      name: "Report message",
      name_localizations: null,
      description: "",
      description_localizations: null,
      dm_permission: true,
      contexts: [InteractionContextType.Guild],
      integration_types: [ApplicationIntegrationType.GuildInstall],
      default_permission: true,
      nsfw: false,
    });
    // Options answer `required` only where true, as discord.js's equals expects of the platform.
    expect(listed.body[0]).toMatchObject({
      name_localizations: { de: "moderation", fr: "modération" },
      default_member_permissions: String(P.KickMembers | P.BanMembers),
    });
    expect(listed.body[0].options).toEqual([
      {
        type: O.Subcommand,
        name: "ban",
        description: "Bans a member",
        options: [
          { type: O.User, name: "user", description: "Who", required: true },
          {
            type: O.String,
            name: "reason",
            description: "Why",
            name_localizations: { de: "grund" },
            choices: [
              { name: "Spam", value: "spam", name_localizations: { de: "Werbung" } },
              { name: "Abuse", value: "abuse" },
            ],
          },
          { type: O.Integer, name: "days", description: "Messages to delete, in days", min_value: 0, max_value: 7 },
        ],
      },
      {
        type: O.SubcommandGroup,
        name: "warnings",
        description: "A member's warnings",
        options: [
          {
            type: O.Subcommand,
            name: "list",
            description: "Lists a member's warnings",
            options: [{ type: O.User, name: "user", description: "Whose", required: true }],
          },
        ],
      },
    ]);

    // The next start sends the same list: nothing changes, not even a version.
    const again = await commands.set([modCommand(), userInfoCommand(), reportCommand()]);
    expect(versionsOf(again.values())).toEqual(firstVersions);

    // A rename matched by id: discord.js sends a JSON-encodable body as it is, id included.
    // The platform takes an `id` on a bulk item, which discord-api-types leaves out.
    const renamed: RESTPostAPIApplicationCommandsJSONBody & { id: string } = { ...userInfoCommand().toJSON(), id: userCmd.id, name: "Member info" };
    const afterRename = await commands.set([modCommand(), { toJSON: () => renamed }, reportCommand()]);
    expect([...afterRename.values()].map((command) => [command.id, command.name])).toEqual([
      [modCmd.id, "mod"],
      [userCmd.id, "Member info"],
      [reportCmd.id, "Report message"],
    ]);
    // Only the renamed one changed.
    const [modNow, userNow, reportNow] = versionsOf(afterRename.values());
    expect([modNow, reportNow]).toEqual([firstVersions[0], firstVersions[2]]);
    expect(userNow![1]).not.toBe(firstVersions[1]![1]);
    const stored = await api().get(globalPath());
    expect(stored.body.map((command: { id: string; name: string }) => [command.id, command.name])).toEqual([
      [modCmd.id, "mod"],
      [userCmd.id, "Member info"],
      [reportCmd.id, "Report message"],
    ]);
  });

  it("creates, edits, fetches and deletes one global command", async () => {
    const commands = client.application!.commands;
    const pingCommand = () =>
      new SlashCommandBuilder()
        .setName("ping")
        .setDescription("Replies with pong")
        .setNameLocalizations({ [Locale.German]: "pingen" })
        .addBooleanOption((option) => option.setName("ephemeral").setDescription("Only you see the answer"));
    const ping = await commands.create(pingCommand());
    expect([ping.name, ping.description, ping.nameLocalizations, ping.defaultMemberPermissions, ping.guildId]).toEqual([
      "ping",
      "Replies with pong",
      { de: "pingen" },
      null,
      null,
    ]);
    expect(ping.options).toMatchObject([{ type: O.Boolean, name: "ephemeral", required: false }]);
    // discord.js does not show the status: a new command is 201, the same name and type again an upsert (200, same id).
    const upsert = await api().post(globalPath(), pingCommand().toJSON());
    expect([upsert.status, upsert.body.id, upsert.body.version]).toEqual([200, ping.id, ping.version]);
    const fresh = await api().post(globalPath(), { name: "uptime", description: "How long the bot has run" });
    expect([fresh.status, fresh.body.name]).toEqual([201, "uptime"]);

    const createdVersion = ping.version;
    const edited = await commands.edit(ping, { description: "Checks the latency", defaultMemberPermissions: P.ManageMessages });
    expect([edited.version === createdVersion, edited.description, edited.defaultMemberPermissions?.toArray()]).toEqual([
      false,
      "Checks the latency",
      ["ManageMessages"],
    ]);

    // Read as a bot that just started would: discord.js patches a cached command, keeping what an answer leaves out.
    commands.cache.clear();
    const one = await commands.fetch(ping.id);
    expect([one.id, one.version, one.description, one.nameLocalizations]).toEqual([ping.id, edited.version, "Checks the latency", { de: "pingen" }]);
    // The edit replaced only the fields it gave.
    expect(one.options).toMatchObject([{ type: O.Boolean, name: "ephemeral" }]);
    commands.cache.clear();
    const all = await commands.fetch();
    expect(all.has(ping.id) && all.has(fresh.body.id)).toBe(true);
    expect(idsOf(all.values())).toEqual((await api().get(globalPath())).body.map((command: { id: string }) => command.id));
    // A list read carries the requester's variant, and the maps only when asked for.
    expect([all.get(ping.id)!.nameLocalizations, all.get(ping.id)!.nameLocalized]).toEqual([null, null]);
    commands.cache.clear();
    const german = await commands.fetch({ locale: Locale.German });
    expect([german.get(ping.id)!.nameLocalizations, german.get(ping.id)!.nameLocalized]).toEqual([null, "pingen"]);
    commands.cache.clear();
    const whole = await commands.fetch({ withLocalizations: true });
    expect([whole.get(ping.id)!.nameLocalizations, whole.get(ping.id)!.nameLocalized]).toEqual([{ de: "pingen" }, null]);
    const listed = await api().get(globalPath(), { headers: { "x-discord-locale": "de" } });
    const pingListed = listed.body.find((command: { id: string }) => command.id === ping.id);
    expect([listed.status, pingListed.name_localized, "name_localizations" in pingListed]).toEqual([200, "pingen", false]);

    const deleted = await commands.delete(ping.id);
    expect(deleted?.id).toBe(ping.id);
    const gone = await rejection(commands.fetch(ping.id, { force: true }));
    expect(gone).toBeInstanceOf(DiscordAPIError);
    expect([(gone as DiscordAPIError).code, (gone as DiscordAPIError).status]).toEqual([10063, 404]);
    const read = await api().get(`${globalPath()}/${ping.id}`);
    expect([read.status, read.body]).toEqual([404, { code: 10063, message: "Unknown application command" }]);
    // discord.js does not show a delete's 204 either.
    const removed = await api().delete(`${globalPath()}/${fresh.body.id}`);
    expect([removed.status, removed.body]).toEqual([204, ""]);
  });

  it("sets and fetches its guild commands, which carry the guild's id; the global ones stay apart", async () => {
    const globalIds = (await api().get(globalPath())).body.map((command: { id: string }) => command.id);
    // Guild commands have no contexts or install types: a guild body leaves them out.
    const tag = new SlashCommandBuilder()
      .setName("tag")
      .setDescription("Posts a saved answer")
      .addStringOption((name) => name.setName("name").setDescription("Which").setRequired(true).setMaxLength(32));
    const quote = new ContextMenuCommandBuilder().setName("Quote").setType(ApplicationCommandType.Message);
    const set = await guild().commands.set([tag, quote]);
    expect([...set.values()].map((command) => [command.name, command.guildId, command.guild?.id])).toEqual([
      ["tag", guildId, guildId],
      ["Quote", guildId, guildId],
    ]);
    expect(set.first()!.options).toMatchObject([{ type: O.String, name: "name", required: true, maxLength: 32 }]);
    expect(set.first()!.equals(sent(tag), true)).toBe(true);

    const fetched = await guild().commands.fetch();
    expect([...fetched.values()].map((command) => [command.id, command.guildId])).toEqual(idsOf(set.values()).map((id) => [id, guildId]));
    const fromApplication = await client.application!.commands.fetch({ guildId });
    expect([...fromApplication.values()].map((command) => command.guildId)).toEqual([guildId, guildId]);
    const setVersions = versionsOf(set.values());
    const again = await guild().commands.set([tag, quote]);
    expect(versionsOf(again.values())).toEqual(setVersions);

    const listed = await api().get(guildPath(), { query: { with_localizations: "true" } });
    expect(listed.status).toBe(200);
    expect(listed.body[1]).toEqual({
      id: set.last()!.id,
      application_id: bot.application.id,
      guild_id: guildId,
      version: set.last()!.version,
      default_member_permissions: null,
      type: ApplicationCommandType.Message,
      name: "Quote",
      name_localizations: null,
      description: "",
      description_localizations: null,
      default_permission: true,
      nsfw: false,
    });
    expect((await api().get(globalPath())).body.map((command: { id: string }) => command.id)).toEqual(globalIds);
  });

  it("replaces a command's permissions with the owner's Bearer token, heard as applicationCommandPermissionsUpdate, and reads them back", async () => {
    const permissions = client.application!.commands.permissions;
    const warn = await guild().commands.create(new SlashCommandBuilder().setName("warn").setDescription("Warns a member"));
    const slowmode = await guild().commands.create(new SlashCommandBuilder().setName("slowmode").setDescription("Slows a channel down"));
    const list = [
      { id: moderatorsRoleId, type: ApplicationCommandPermissionType.Role, permission: true },
      { id: guildId, type: ApplicationCommandPermissionType.Role, permission: false },
      { id: allChannelsId(guildId), type: ApplicationCommandPermissionType.Channel, permission: true },
    ];

    const heard = nextEvent(client, Events.ApplicationCommandPermissionsUpdate, (update) => update.id === warn.id);
    const set = await permissions.set({ guild: guildId, command: warn.id, token: ownerToken, permissions: list });
    expect(set).toEqual(list);
    const [update] = await heard;
    expect(update).toEqual({ id: warn.id, guildId, applicationId: bot.application.id, permissions: list });
    expect(await permissions.fetch({ guild: guildId, command: warn.id })).toEqual(list);
    const read = await api().get(`${guildPath()}/${warn.id}/permissions`);
    expect([read.status, read.body]).toEqual([200, { id: warn.id, application_id: bot.application.id, guild_id: guildId, permissions: list }]);

    // None set: 10066, which discord.js's add, remove and has read as an empty list.
    const none = await rejection(permissions.fetch({ guild: guildId, command: slowmode.id }));
    expect(none).toBeInstanceOf(DiscordAPIError);
    expect([(none as DiscordAPIError).code, (none as DiscordAPIError).status]).toEqual([10066, 404]);
    const unset = await api().get(`${guildPath()}/${slowmode.id}/permissions`);
    expect([unset.status, unset.body]).toEqual([404, { code: 10066, message: "Unknown application command permissions" }]);
    expect(await guild().commands.permissions.has({ command: slowmode.id, permissionId: helper.user.id })).toBe(false);
    const forHelper = { id: helper.user.id, type: ApplicationCommandPermissionType.User, permission: true };
    expect(await guild().commands.permissions.add({ command: slowmode.id, token: ownerToken, permissions: [forHelper] })).toEqual([forHelper]);
    expect(await guild().commands.permissions.has({ command: slowmode.id, permissionId: helper.user.id })).toBe(true);

    // The application-level entry, under the id discord.js gives it (its default without a command): its bot user's.
    const everywhere = [{ id: allChannelsId(guildId), type: ApplicationCommandPermissionType.Channel, permission: true }];
    expect(await guild().commands.permissions.set({ command: client.user!.id, token: ownerToken, permissions: everywhere })).toEqual(everywhere);
    expect(await guild().commands.permissions.fetch({ command: client.user!.id })).toEqual(everywhere);
    const appLevel = await api().get(`${guildPath()}/${bot.application.id}/permissions`);
    expect([appLevel.status, appLevel.body]).toEqual([
      200,
      { id: bot.application.id, application_id: bot.application.id, guild_id: guildId, permissions: everywhere },
    ]);

    const all = await permissions.fetch({ guild: guildId });
    expect(new Map(all)).toEqual(
      new Map([
        [warn.id, list],
        [slowmode.id, [forHelper]],
        [bot.application.id, everywhere],
      ]),
    );
    const listed = await api().get(`${guildPath()}/permissions`);
    expect([listed.status, listed.body.map((entry: { id: string }) => entry.id).sort()]).toEqual([200, [warn.id, slowmode.id, bot.application.id].sort()]);

    // A rename drops the command's permissions, as on the platform.
    await guild().commands.edit(warn.id, { name: "caution" });
    const dropped = await rejection(permissions.fetch({ guild: guildId, command: warn.id }));
    expect((dropped as DiscordAPIError).code).toBe(10066);
  });

  it("is refused a permission edit by a member without Manage Guild (50013), and with its own bot token (20001)", async () => {
    const purge = await guild().commands.create(new SlashCommandBuilder().setName("purge").setDescription("Deletes messages"));
    const helperToken = await issueBearerToken(
      { db: app.db, actor: null },
      { userId: helper.user.id, applicationId: bot.application.id, scopes: ["applications.commands.permissions.update"] },
    );
    const list = [{ id: guildId, type: ApplicationCommandPermissionType.Role, permission: false }];
    const refused = await rejection(guild().commands.permissions.set({ command: purge.id, token: helperToken, permissions: list }));
    expect(refused).toBeInstanceOf(DiscordAPIError);
    expect([(refused as DiscordAPIError).code, (refused as DiscordAPIError).status]).toEqual([50013, 403]);
    const asHelper = await app.as(bearer(helperToken)).put(`${guildPath()}/${purge.id}/permissions`, { permissions: list });
    expect([asHelper.status, asHelper.body]).toMatchObject([403, MISSING_PERMISSIONS]);
    const asBot = await api().put(`${guildPath()}/${purge.id}/permissions`, { permissions: list });
    expect([asBot.status, asBot.body]).toEqual([403, { code: 20001, message: "Bots cannot use this endpoint" }]);
    expect((await api().get(`${guildPath()}/${purge.id}/permissions`)).status).toBe(404);
  });
});
