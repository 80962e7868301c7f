// Guild command permissions over REST (interactions.md 1.3, 1.8): read by the application,
// replaced by a person who may through their token for the application, dropped with the
// command's name, recorded in the audit log and announced to the application's own bot alone.
import { ApplicationCommandType, AuditLogEvent, GatewayDispatchEvents as E, GatewayIntentBits as I, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createUser, issueBearerToken } from "~/server/applications/application.service.ts";
import { dashboardActor, type OAuth2Scope } from "~/server/auth/actor.ts";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "~/server/gateway/session-start-limit.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, makeBot, makeGuild, makeUser, seedMembers } from "~/test/factories.ts";
import { identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { listGuildCommands } from "./command-dashboard.service.ts";
import { commandUseDenial } from "./command-permission-rules.ts";

const app = useTestApp();
const kit = threadKit(app);
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

const SCOPE: OAuth2Scope = "applications.commands.permissions.update";
const ROLE = 1;
const USER = 2;
const CHANNEL = 3;
const UNKNOWN_PERMISSIONS = { code: 10066, message: "Unknown application command permissions" };
const UNKNOWN_COMMAND = { code: 10063, message: "Unknown application command" };

/**
 * A guild owned by a bot (which reads the audit log), where @everyone may use commands, with an
 * application installed and a guild command of it, and an editor: a person whose role (at
 * position 5) grants Manage Guild and Manage Roles, with their token for the application.
 */
async function setup() {
  const base = await kit.setupWithChannels();
  const guildId = base.guild.id;
  await kit.setEveryone(guildId, P.ViewChannel | P.UseApplicationCommands);
  const made = await makeBot(app.db);
  await addMember(app.db, guildId, made.user.id);
  const applicationId = made.application.id;
  const appBot = app.as(bot(made.token));
  const local = `/applications/${applicationId}/guilds/${guildId}/commands`;
  const command = (await appBot.post(local, { name: "ban", description: "Bans a member" })).body as { id: string };

  /** A person in the guild holding `roleIds`, with their token for the application carrying `scopes`. */
  async function person(roleIds: string[], scopes: OAuth2Scope[] = [SCOPE], forApplication = applicationId) {
    const user = await createUser(app.db, { username: `person_${newId()}` });
    await addMember(app.db, guildId, user.id, roleIds);
    const token = await issueBearerToken({ db: app.db, actor: null }, { userId: user.id, applicationId: forApplication, scopes });
    return { userId: user.id, api: app.as(bearer(token)) };
  }

  const editorRole = await kit.addRole(guildId, 5, { name: "moderators", permissions: P.ManageGuild | P.ManageRoles });
  const editor = await person([editorRole.id]);
  const lower = await kit.addRole(guildId, 2, { name: "members" });
  return {
    ...base,
    guildId,
    made,
    applicationId,
    appBot,
    local,
    command: command.id,
    permissionsOf: (commandId: string) => `${local}/${commandId}/permissions`,
    all: `${local}/permissions`,
    person,
    editorRole,
    editor,
    lower,
  };
}

const fieldError = (body: any, ...path: (string | number)[]) => {
  let node = body.errors;
  for (const key of path) node = node?.[key];
  return node?._errors?.[0]?.code as string | undefined;
};

describe("reading a guild's command permissions", () => {
  it("10066 while none are set; 10063 for a command that is not the application's global one or this guild's", async () => {
    const { appBot, applicationId, command, permissionsOf, all, owner, made, editor } = await setup();
    expect(await appBot.get(permissionsOf(command))).toMatchObject({ status: 404, body: UNKNOWN_PERMISSIONS });
    // The editor's token for the application reads too.
    expect(await editor.api.get(permissionsOf(command))).toMatchObject({ status: 404, body: UNKNOWN_PERMISSIONS });
    expect((await appBot.get(all)).body).toEqual([]);
    // A global command has permissions in each guild: none set here yet.
    const global = (await appBot.post(`/applications/${applicationId}/commands`, { name: "help", description: "Helps" })).body.id as string;
    expect((await appBot.get(permissionsOf(global))).body).toEqual(UNKNOWN_PERMISSIONS);

    // The same application's command of another guild, and an id no command has.
    const elsewhere = await makeGuild(app.db, owner.actor);
    await addMember(app.db, elsewhere.id, made.user.id);
    const theirs = (await appBot.post(`/applications/${applicationId}/guilds/${elsewhere.id}/commands`, { name: "ban", description: "x" })).body.id as string;
    for (const id of [theirs, newId()]) expect(await appBot.get(permissionsOf(id))).toMatchObject({ status: 404, body: UNKNOWN_COMMAND });
  });
});

describe("replacing them", () => {
  it("a person with Manage Guild and Manage Roles: 200 with the object, then read one and all", async () => {
    const { guildId, applicationId, appBot, command, permissionsOf, all, editor, lower, text } = await setup();
    const member = await kit.addUser(guildId);
    const permissions = [
      { id: lower.id, type: ROLE, permission: true },
      { id: member.user.id, type: USER, permission: false },
      { id: text.id, type: CHANNEL, permission: true },
    ];
    const put = await editor.api.put(permissionsOf(command), { permissions });
    expect(put.status).toBe(200);
    const object = { id: command, application_id: applicationId, guild_id: guildId, permissions };
    expect(put.body).toEqual(object);
    expect((await appBot.get(permissionsOf(command))).body).toEqual(object);
    expect((await appBot.get(all)).body).toEqual([object]);
    // The same target twice keeps the last one given.
    const twice = await editor.api.put(permissionsOf(command), {
      permissions: [
        { id: lower.id, type: ROLE, permission: true },
        { id: lower.id, type: ROLE, permission: false },
      ],
    });
    expect(twice.body.permissions).toEqual([{ id: lower.id, type: ROLE, permission: false }]);
  });

  it("the app-level entry under the application's id, and the constants: @everyone is the guild's id, All Channels the guild's id minus one", async () => {
    const { guildId, applicationId, appBot, command, permissionsOf, all, editor } = await setup();
    const allChannels = (BigInt(guildId) - 1n).toString();
    const own = (await editor.api.put(permissionsOf(command), { permissions: [{ id: guildId, type: ROLE, permission: true }] })).body;
    const appLevel = [
      { id: guildId, type: ROLE, permission: false },
      { id: allChannels, type: CHANNEL, permission: false },
    ];
    const put = await editor.api.put(permissionsOf(applicationId), { permissions: appLevel });
    expect([put.status, put.body]).toEqual([200, { id: applicationId, application_id: applicationId, guild_id: guildId, permissions: appLevel }]);
    expect((await appBot.get(permissionsOf(applicationId))).body).toEqual(put.body);
    const byId = (list: { id: string }[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId((await appBot.get(all)).body)).toEqual(byId([put.body, own]));

    // Each constant holds only as its own type: the guild's id is no channel, All Channels no role.
    const asChannel = await editor.api.put(permissionsOf(command), { permissions: [{ id: guildId, type: CHANNEL, permission: true }] });
    expect([asChannel.status, asChannel.body.code, fieldError(asChannel.body, "permissions", 0, "id")]).toEqual([400, 50035, "CHANNEL_INVALID"]);
    const asRole = await editor.api.put(permissionsOf(command), { permissions: [{ id: allChannels, type: ROLE, permission: true }] });
    expect([asRole.status, fieldError(asRole.body, "permissions", 0, "id")]).toEqual([400, "ROLE_INVALID"]);
  });

  it("an empty list clears them (10066 after)", async () => {
    const { guildId, command, permissionsOf, all, appBot, editor } = await setup();
    await editor.api.put(permissionsOf(command), { permissions: [{ id: guildId, type: ROLE, permission: true }] });
    const cleared = await editor.api.put(permissionsOf(command), { permissions: [] });
    expect([cleared.status, cleared.body.permissions]).toEqual([200, []]);
    expect((await appBot.get(permissionsOf(command))).body).toEqual(UNKNOWN_PERMISSIONS);
    expect((await appBot.get(all)).body).toEqual([]);
  });
});

describe("who may replace them", () => {
  it("not a bot (20001), not a token without the scope (50001), not a token for another application (20012); none changes anything", async () => {
    const { guildId, appBot, command, permissionsOf, person, editorRole } = await setup();
    const body = { permissions: [{ id: guildId, type: ROLE, permission: false }] };
    expect(await appBot.put(permissionsOf(command), body)).toMatchObject({ status: 403, body: { code: 20001, message: "Bots cannot use this endpoint" } });
    const unscoped = await person([editorRole.id], ["identify", "guilds"]);
    expect(await unscoped.api.put(permissionsOf(command), body)).toMatchObject({ status: 403, body: MISSING_ACCESS });
    const otherApplication = (await makeBot(app.db)).application.id;
    const foreign = await person([editorRole.id], [SCOPE], otherApplication);
    expect((await foreign.api.put(permissionsOf(command), body)).body.code).toBe(20012);
    expect((await appBot.get(permissionsOf(command))).body).toEqual(UNKNOWN_PERMISSIONS);
  });

  it("not a person lacking Manage Roles, nor one naming a role not below their highest (50013)", async () => {
    const { guildId, appBot, command, permissionsOf, person, editor, editorRole, lower } = await setup();
    const managers = await kit.addRole(guildId, 4, { name: "managers", permissions: P.ManageGuild });
    const withoutRoles = await person([managers.id]);
    const body = { permissions: [{ id: lower.id, type: ROLE, permission: true }] };
    expect(await withoutRoles.api.put(permissionsOf(command), body)).toMatchObject({ status: 403, body: MISSING_PERMISSIONS });

    // The editor's highest role is at 5: one at 6 is above it, their own is not below it.
    const above = await kit.addRole(guildId, 6, { name: "admins" });
    for (const role of [above.id, editorRole.id]) {
      const refused = await editor.api.put(permissionsOf(command), { permissions: [{ id: role, type: ROLE, permission: true }] });
      expect([refused.status, refused.body]).toEqual([403, MISSING_PERMISSIONS]);
    }
    expect((await appBot.get(permissionsOf(command))).body).toEqual(UNKNOWN_PERMISSIONS);
    // The same editor, a role below theirs: allowed.
    expect((await editor.api.put(permissionsOf(command), body)).status).toBe(200);
  });
});

describe("the list's own rules", () => {
  it("an id that is no role, member or channel of the guild is 50035 at permissions.<n>.id", async () => {
    const { guildId, owner, api, command, permissionsOf, appBot, editor } = await setup();
    const stranger = await makeUser(app.db);
    const elsewhere = await makeGuild(app.db, owner.actor);
    const foreignChannel = (await api.get(`/guilds/${elsewhere.id}/channels`)).body[0].id as string;
    const everyone = { id: guildId, type: ROLE, permission: true };
    const cases: [{ id: string; type: number }, string][] = [
      [{ id: newId(), type: ROLE }, "ROLE_INVALID"],
      // A user, but not a member here.
      [{ id: stranger.user.id, type: USER }, "USER_INVALID"],
      [{ id: foreignChannel, type: CHANNEL }, "CHANNEL_INVALID"],
    ];
    for (const [target, code] of cases) {
      const refused = await editor.api.put(permissionsOf(command), { permissions: [everyone, { ...target, permission: true }] });
      expect([refused.status, refused.body.code, fieldError(refused.body, "permissions", 1, "id")], code).toEqual([400, 50035, code]);
    }
    expect((await appBot.get(permissionsOf(command))).body).toEqual(UNKNOWN_PERMISSIONS);
  });

  it("at most 100 overwrites (50035 at permissions beyond)", async () => {
    const { guildId, command, permissionsOf, editor } = await setup();
    const members = await seedMembers(
      app.db,
      guildId,
      Array.from({ length: 101 }, (_, i) => ({ username: `member_${i}_${newId()}` })),
    );
    const overwrites = members.map((id) => ({ id, type: USER, permission: true }));
    const full = await editor.api.put(permissionsOf(command), { permissions: overwrites.slice(0, 100) });
    expect([full.status, full.body.permissions?.length]).toEqual([200, 100]);
    const over = await editor.api.put(permissionsOf(command), { permissions: overwrites });
    expect([over.status, over.body.code, fieldError(over.body, "permissions")]).toEqual([400, 50035, "BASE_TYPE_MAX_LENGTH"]);
    expect((await editor.api.get(permissionsOf(command))).body.permissions).toHaveLength(100);
  });
});

describe("a command's permissions go with its name", () => {
  it("kept by an edit of anything else, dropped by a rename (10066) and by its deletion (10063)", async () => {
    const { guildId, applicationId, local, appBot, command, permissionsOf, all, editor } = await setup();
    const permissions = [{ id: guildId, type: ROLE, permission: true }];
    await editor.api.put(permissionsOf(command), { permissions });
    await appBot.patch(`${local}/${command}`, { description: "Removes a member" });
    expect((await appBot.get(permissionsOf(command))).body.permissions).toEqual(permissions);
    expect((await appBot.patch(`${local}/${command}`, { name: "banish" })).status).toBe(200);
    expect((await appBot.get(permissionsOf(command))).body).toEqual(UNKNOWN_PERMISSIONS);

    await editor.api.put(permissionsOf(command), { permissions });
    expect((await appBot.delete(`${local}/${command}`)).status).toBe(204);
    expect(await appBot.get(permissionsOf(command))).toMatchObject({ status: 404, body: UNKNOWN_COMMAND });
    expect((await appBot.get(all)).body).toEqual([]);

    // A global command's, set in this guild, go with its rename too.
    const global = `/applications/${applicationId}/commands`;
    const help = (await appBot.post(global, { name: "help", description: "Helps" })).body.id as string;
    expect((await editor.api.put(permissionsOf(help), { permissions })).status).toBe(200);
    await appBot.patch(`${global}/${help}`, { name: "assist" });
    expect((await appBot.get(permissionsOf(help))).body).toEqual(UNKNOWN_PERMISSIONS);
  });
});

describe("what a replacement leaves", () => {
  it("an audit entry 121: the command as target, the application in options, a change per overwrite's id", async () => {
    const { guildId, applicationId, api, command, permissionsOf, editor, lower } = await setup();
    const everyone = { id: guildId, type: ROLE, permission: true };
    const members = { id: lower.id, type: ROLE, permission: true };
    await editor.api.put(permissionsOf(command), { permissions: [everyone, members] });
    await editor.api.put(permissionsOf(command), { permissions: [{ ...everyone, permission: false }] });
    // Setting the same list again changes nothing, and is no entry.
    await editor.api.put(permissionsOf(command), { permissions: [{ ...everyone, permission: false }] });

    const log = (await api.get(`/guilds/${guildId}/audit-logs`, { query: { action_type: AuditLogEvent.ApplicationCommandPermissionUpdate } })).body;
    const entries = log.audit_log_entries as any[];
    expect(entries).toHaveLength(2);
    const [second, first] = entries;
    for (const entry of entries) {
      expect(entry).toMatchObject({
        action_type: 121,
        target_id: command,
        user_id: editor.userId,
        options: { application_id: applicationId },
      });
    }
    expect(first.changes).toEqual([
      { key: guildId, new_value: everyone },
      { key: lower.id, new_value: members },
    ]);
    expect(second.changes).toEqual([
      { key: guildId, old_value: everyone, new_value: { ...everyone, permission: false } },
      { key: lower.id, old_value: members },
    ]);
    // The log names the command, as it names the users.
    expect(log.application_commands).toEqual([expect.objectContaining({ id: command, application_id: applicationId })]);
  });

  it("APPLICATION_COMMAND_PERMISSIONS_UPDATE reaches the application's own bot, and no other bot of the guild", async () => {
    const { guildId, api, made, command, permissionsOf, editor } = await setup();
    const other = await kit.addBot(guildId);
    const { client: own } = await identified(server, made.token, { intents: I.Guilds });
    const { client: stranger } = await identified(server, other.token, { intents: I.Guilds });
    for (const client of [own, stranger]) await client.dispatch(E.GuildCreate);

    const object = (await editor.api.put(permissionsOf(command), { permissions: [{ id: guildId, type: ROLE, permission: false }] })).body;
    expect((await own.dispatch(E.ApplicationCommandPermissionsUpdate)).d).toEqual(object);
    // A role made after it reaches the other bot: the permissions event never came before it.
    await api.post(`/guilds/${guildId}/roles`, { name: "after" });
    const frames = await stranger.framesThrough((frame) => frame.t === E.GuildRoleCreate, E.GuildRoleCreate);
    expect(frames.map((frame) => frame.t)).not.toContain(E.ApplicationCommandPermissionsUpdate);
  });
});

describe("the use decision as a service computes it", () => {
  it("a member the stored permissions refuse gets the decision's reason from the guild's commands view; one allowed by name gets none", async () => {
    const { guildId, applicationId, api, command, permissionsOf, editor, lower, text, person } = await setup();
    const managers = await kit.addRole(guildId, 4, { name: "managers", permissions: P.ManageGuild });
    const viewer = await person([managers.id, lower.id]);
    const named = await person([managers.id, lower.id]);
    // The member's own overwrite comes before their roles'.
    const stored = [
      { id: lower.id, type: ROLE, permission: false },
      { id: named.userId, type: USER, permission: true },
    ];
    expect((await editor.api.put(permissionsOf(command), { permissions: stored })).status).toBe(200);

    const channel = (await api.get(`/channels/${text.id}`)).body as { name: string };
    const decided = commandUseDenial({
      guild: { id: guildId, features: [] },
      member: {
        userId: viewer.userId,
        roles: [
          { id: managers.id, name: "managers" },
          { id: lower.id, name: "members" },
        ],
        isOwner: false,
        // @everyone's and the roles' in #general, which no overwrite changes.
        permissions: P.ViewChannel | P.UseApplicationCommands | P.ManageGuild,
        standing: { isTimedOut: false, isPending: false },
      },
      channel: { id: text.id, name: channel.name, threadParent: null, nsfw: false },
      command: { name: "ban", type: ApplicationCommandType.ChatInput, default_member_permissions: null, nsfw: false },
      stored: { command: stored, application: [] },
    });
    expect(decided?.reason).toBe("The permissions of /ban deny the members role.");

    const useDenialOf = async (userId: string) => {
      const view = await listGuildCommands({ db: app.db, actor: dashboardActor(userId) }, { guildId });
      expect(view.useChannel?.id).toBe(text.id);
      return view.applications.find((each) => each.id === applicationId)?.commands.find((row) => row.command.id === command)?.useDenial;
    };
    expect(await useDenialOf(viewer.userId)).toBe(decided?.reason);
    expect(await useDenialOf(named.userId)).toBeNull();
  });
});
