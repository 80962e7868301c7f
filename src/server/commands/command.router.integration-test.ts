import { ApplicationCommandPermissionType as T, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { issueBearerToken } from "~/server/applications/application.service.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { memberKit } from "~/test/member-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { allChannelsId } from "./command-permission-rules.ts";

// The dashboard's commands: an application's registries for its owner, and a guild's installed
// applications' commands with their permissions, each with the reasons of the decisions the
// registry enforces; edits go through the service REST uses.

const app = useTestApp();
const kit = memberKit(app);

const BAN = {
  name: "ban",
  description: "Bans a member",
  default_member_permissions: String(P.BanMembers),
  options: [{ type: 6, name: "user", description: "Who", required: true }],
};
const WARN = { name: "warn", description: "Warns", options: [{ type: 1, name: "add", description: "Add a warning" }] };

/** A guild a dashboard user owns, with an application's bot in it holding a global and a guild command. */
async function installedApp() {
  const owner = await makeUser(app.db);
  const guild = await makeGuild(app.db, dashboardActor(owner.user.id));
  const application = await makeBot(app.db);
  await addMember(app.db, guild.id, application.user.id);
  const api = app.as(bot(application.token));
  const applicationId = application.application.id;
  const ban = (await api.post(`/applications/${applicationId}/commands`, BAN)).body as { id: string };
  const warn = (await api.post(`/applications/${applicationId}/guilds/${guild.id}/commands`, WARN)).body as { id: string };
  return { owner, guild, applicationId, developerId: application.application.ownerId, ban, warn, asOwner: createCaller({ db: app.db, userId: owner.user.id }) };
}

describe("command.application", () => {
  it("lists the owner's global commands and guild commands by guild, with how full each registry is; another user reads it as unknown", async () => {
    const { guild, applicationId, developerId, ban, warn } = await installedApp();
    const asDeveloper = createCaller({ db: app.db, userId: developerId });
    const view = await asDeveloper.command.application({ applicationId });
    expect(view.global.commands).toEqual([expect.objectContaining({ id: ban.id, name: "ban", default_member_permissions: "4", options: BAN.options })]);
    expect(view.global.limits).toEqual([
      { type: 1, used: 1, limit: 100 },
      { type: 2, used: 0, limit: 15 },
      { type: 3, used: 0, limit: 15 },
      { type: 4, used: 0, limit: 1 },
    ]);
    expect(view.global.createsToday).toBe(1);
    expect(view.guilds).toEqual([
      {
        guild: { id: guild.id, name: guild.name },
        installed: true,
        commands: [expect.objectContaining({ id: warn.id, guild_id: guild.id, name: "warn" })],
        limits: [
          { type: 1, used: 1, limit: 100 },
          { type: 2, used: 0, limit: 15 },
          { type: 3, used: 0, limit: 15 },
        ],
        createsToday: 1,
      },
    ]);
    expect(view.dailyCreates).toBe(200);

    const stranger = createCaller({ db: app.db, userId: (await makeUser(app.db)).user.id });
    await expect(stranger.command.application({ applicationId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("command.guild and command.setPermissions", () => {
  it("shows what REST set, and the owner's edit through the dashboard, with no reasons for the owner", async () => {
    const { owner, guild, applicationId, ban, warn, asOwner } = await installedApp();
    const muted = await kit.addRole(guild.id, 1, { name: "Muted" });
    // The guild owner's own authorization of the app, as its REST call would carry it.
    const token = await issueBearerToken(
      { db: app.db, actor: null },
      { userId: owner.user.id, applicationId, scopes: ["applications.commands.permissions.update"] },
    );
    const put = await app.as(bearer(token)).put(`/applications/${applicationId}/guilds/${guild.id}/commands/${ban.id}/permissions`, {
      permissions: [{ id: muted.id, type: T.Role, permission: false }],
    });
    expect(put.status).toBe(200);

    const [installed] = (await asOwner.command.guild({ guildId: guild.id })).applications;
    expect(installed).toMatchObject({ id: applicationId, hasCommands: true, all: { permissions: [], editDenial: null } });
    expect(installed?.commands.map((row) => [row.command.name, row.permissions, row.editDenial, row.useDenial])).toEqual([
      ["ban", [{ id: muted.id, type: T.Role, permission: false, name: "Muted" }], null, null],
      ["warn", [], null, null],
    ]);

    // The app-level entry: nobody in any channel but @everyone allowed in #general.
    const general = (await asOwner.command.guild({ guildId: guild.id })).useChannel!;
    const everything = [
      { id: allChannelsId(guild.id), type: T.Channel, permission: false },
      { id: general.id, type: T.Channel, permission: true },
      { id: guild.id, type: T.Role, permission: true },
    ];
    const saved = await asOwner.command.setPermissions({ guildId: guild.id, applicationId, commandId: applicationId, permissions: everything });
    expect(saved).toEqual({ id: applicationId, application_id: applicationId, guild_id: guild.id, permissions: everything });
    const listed = await app.as(bearer(token)).get(`/applications/${applicationId}/guilds/${guild.id}/commands/permissions`);
    expect(listed.body).toContainEqual(saved);
    const after = (await asOwner.command.guild({ guildId: guild.id })).applications[0];
    expect(after?.all.permissions.map((overwrite) => overwrite.name)).toEqual(["All channels", `#${general.name}`, "@everyone"]);

    // Clearing the command's own list leaves only the app-level entry.
    await asOwner.command.setPermissions({ guildId: guild.id, applicationId, commandId: ban.id, permissions: [] });
    const editor = await asOwner.command.permissionsEditor({ guildId: guild.id, applicationId, commandId: ban.id });
    expect(editor).toMatchObject({ command: { name: "ban", type: 1 }, permissions: [], editDenial: null, everyoneId: guild.id, maxOverwrites: 100 });
    expect(editor.roles.map((role) => [role.name, role.denial])).toEqual([
      ["Muted", null],
      ["@everyone", null],
    ]);
    expect(editor.channels.map((channel) => channel.name)).toEqual(expect.arrayContaining([`#${general.name}`, "General (voice)"]));
    expect((await asOwner.command.guild({ guildId: guild.id })).applications[0]?.commands.find((row) => row.command.id === warn.id)?.permissions).toEqual([]);

    // A role deleted since stays in the stored list, which its rules now refuse: the editor says so.
    const temp = await asOwner.role.create({ guildId: guild.id, body: { name: "Temp" } });
    const list = [{ id: temp.id, type: T.Role, permission: false }];
    await asOwner.command.setPermissions({ guildId: guild.id, applicationId, commandId: warn.id, permissions: list });
    await asOwner.role.delete({ guildId: guild.id, roleId: temp.id });
    const stale = await asOwner.command.permissionsEditor({ guildId: guild.id, applicationId, commandId: warn.id });
    expect(stale.permissions).toEqual([{ ...list[0], name: "Deleted role" }]);
    expect(stale.listProblems).toEqual([{ id: temp.id, type: T.Role, reason: "Not a role of this guild." }]);
    await expect(asOwner.command.setPermissions({ guildId: guild.id, applicationId, commandId: warn.id, permissions: list })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("a member with Manage guild but not Manage roles sees the decision's reasons, and the edit is refused", async () => {
    const { guild, applicationId, ban, asOwner } = await installedApp();
    const managers = await kit.addRole(guild.id, 1, { name: "Managers", permissions: P.ManageGuild | P.ViewChannel | P.UseApplicationCommands });
    const member = await makeUser(app.db);
    await addMember(app.db, guild.id, member.user.id, [managers.id]);
    const asMember = createCaller({ db: app.db, userId: member.user.id });

    const [installed] = (await asMember.command.guild({ guildId: guild.id })).applications;
    expect(installed?.all.editDenial).toBe("Needs Manage roles.");
    const banRow = installed?.commands.find((row) => row.command.id === ban.id);
    expect(banRow).toMatchObject({ editDenial: "Needs Manage roles.", useDenial: "Only members with Ban members may use /ban by default." });
    expect((await asMember.command.permissionsEditor({ guildId: guild.id, applicationId, commandId: ban.id })).editDenial).toBe("Needs Manage roles.");
    await expect(
      asMember.command.setPermissions({ guildId: guild.id, applicationId, commandId: ban.id, permissions: [{ id: guild.id, type: T.Role, permission: true }] }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });

    // With Manage roles they may edit, but not name a role above their highest.
    await asOwner.role.modify({
      guildId: guild.id,
      roleId: managers.id,
      body: { permissions: String(P.ManageGuild | P.ManageRoles | P.ViewChannel | P.UseApplicationCommands) },
    });
    const admins = await kit.addRole(guild.id, 2, { name: "Admins" });
    const editor = await asMember.command.permissionsEditor({ guildId: guild.id, applicationId, commandId: applicationId });
    expect(editor).toMatchObject({ command: null, editDenial: null });
    expect(editor.roles.map((role) => [role.name, role.denial])).toEqual([
      ["Admins", "The Admins role is not below your highest role."],
      ["Managers", "The Managers role is not below your highest role."],
      ["@everyone", null],
    ]);
    await expect(
      asMember.command.setPermissions({
        guildId: guild.id,
        applicationId,
        commandId: applicationId,
        permissions: [{ id: admins.id, type: T.Role, permission: false }],
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("a member without Manage guild is told the integrations list's reason", async () => {
    const { guild, applicationId, ban } = await installedApp();
    const member = await makeUser(app.db);
    await addMember(app.db, guild.id, member.user.id);
    const asMember = createCaller({ db: app.db, userId: member.user.id });
    await expect(asMember.command.guild({ guildId: guild.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asMember.command.permissionsEditor({ guildId: guild.id, applicationId, commandId: ban.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
