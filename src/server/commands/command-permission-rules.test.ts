import { ApplicationCommandPermissionType as T, ApplicationCommandType, GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Actor } from "~/server/auth/actor.ts";
import { ALL_PERMISSIONS } from "~/server/permissions/permissions.ts";
import {
  allChannelsId,
  commandPermissionsEditDenial,
  commandPermissionsListError,
  commandUseDenial,
  MAX_COMMAND_PERMISSION_OVERWRITES,
  usesOldCommandPermissions,
  type CommandChannel,
  type CommandMember,
  type CommandPermissionOverwrite,
  type CommandPermissionsEditInput,
  type CommandPermissionTargets,
  type CommandSubject,
  type CommandUseInput,
  type StoredCommandPermissions,
} from "./command-permission-rules.ts";

const GUILD = "1000";
const ALL_CHANNELS = "999";
const APP_ID = "2000";
const OLD = [GuildFeature.ApplicationCommandPermissionsV2];
const MODS = { id: "11", name: "Moderators" };
const MUTED = { id: "12", name: "Muted" };
const ME = "31";
const GENERAL: CommandChannel = { id: "21", name: "general", threadParent: null, nsfw: false };
const THREAD: CommandChannel = { id: "22", name: "a thread", threadParent: { id: "21", name: "general" }, nsfw: false };
const MEMBER_PERMISSIONS = P.ViewChannel | P.SendMessages | P.UseApplicationCommands;
const BAN: CommandSubject = { name: "ban", type: ApplicationCommandType.ChatInput, default_member_permissions: null };

const role = (id: string, permission: boolean): CommandPermissionOverwrite => ({ id, type: T.Role, permission });
const user = (id: string, permission: boolean): CommandPermissionOverwrite => ({ id, type: T.User, permission });
const channel = (id: string, permission: boolean): CommandPermissionOverwrite => ({ id, type: T.Channel, permission });

const member = (more: Partial<CommandMember> = {}): CommandMember => ({
  userId: ME,
  roles: [],
  isOwner: false,
  permissions: MEMBER_PERMISSIONS,
  standing: { isTimedOut: false, isPending: false },
  ...more,
});

type UseCase = Partial<Omit<CommandUseInput, "stored">> & { stored?: Partial<StoredCommandPermissions>; features?: string[] };
const use = ({ stored, features = [], ...more }: UseCase = {}) =>
  commandUseDenial({
    guild: { id: GUILD, features },
    member: member(),
    channel: GENERAL,
    command: BAN,
    stored: { command: [], application: [], ...stored },
    ...more,
  });
const reasonOf = (useCase: UseCase) => use(useCase)?.reason ?? null;

describe("the command permission constants", () => {
  it("put All Channels one below the guild's id, exactly at snowflake size", () => {
    expect(allChannelsId(GUILD)).toBe(ALL_CHANNELS);
    expect(allChannelsId("1234567890123456789")).toBe("1234567890123456788");
    expect(allChannelsId("9007199254740993")).toBe("9007199254740992");
  });

  it("read the guild feature APPLICATION_COMMAND_PERMISSIONS_V2 as the old logic", () => {
    expect(usesOldCommandPermissions(["COMMUNITY", ...OLD])).toBe(true);
    expect(usesOldCommandPermissions(["COMMUNITY"])).toBe(false);
  });
});

describe("commandUseDenial", () => {
  it("lets a member with Use application commands run a command nothing restricts", () => {
    expect(use()).toBeNull();
  });

  it("needs Use application commands where the command runs, naming a timeout", () => {
    const lacking = member({ permissions: P.ViewChannel | P.SendMessages });
    expect(use({ member: lacking })).toEqual({ error: "MISSING_PERMISSIONS", reason: "Needs Use application commands in this channel." });
    expect(reasonOf({ member: lacking, channel: THREAD })).toBe("Needs Use application commands in this thread.");
    expect(reasonOf({ member: member({ permissions: P.ViewChannel, standing: { isTimedOut: true, isPending: false } }) })).toBe(
      "Needs Use application commands in this channel (you are timed out).",
    );
  });

  it("lets the owner and administrators run anything the overwrites and default_member_permissions forbid", () => {
    const stored = { command: [role(GUILD, false), channel(ALL_CHANNELS, false), user(ME, false)], application: [role(GUILD, false)] };
    const command = { ...BAN, default_member_permissions: "0" };
    expect(use({ stored, command, member: member({ isOwner: true, permissions: ALL_PERMISSIONS }) })).toBeNull();
    expect(use({ stored, command, member: member({ permissions: P.Administrator }) })).toBeNull();
    expect(use({ stored, command })).not.toBeNull();
  });

  it("keeps age-restricted commands to age-restricted channels, for administrators too", () => {
    const command = { ...BAN, nsfw: true };
    expect(reasonOf({ command })).toBe("This channel is not age-restricted, and /ban is.");
    expect(use({ command, member: member({ permissions: ALL_PERMISSIONS }) })).not.toBeNull();
    expect(use({ command, channel: { ...GENERAL, nsfw: true } })).toBeNull();
  });

  it("needs Send messages for a USER command (Send messages in threads in a thread), not for a slash command", () => {
    const report: CommandSubject = { name: "Report", type: ApplicationCommandType.User, default_member_permissions: null };
    const quiet = member({ permissions: P.ViewChannel | P.UseApplicationCommands });
    expect(reasonOf({ command: report, member: quiet })).toBe("Needs Send messages in this channel.");
    expect(reasonOf({ command: report, member: quiet, channel: THREAD })).toBe("Needs Send messages in threads in this thread.");
    expect(use({ command: report, member: member({ permissions: quiet.permissions | P.SendMessagesInThreads }), channel: THREAD })).toBeNull();
    expect(use({ member: quiet })).toBeNull();
  });

  describe("the channel check", () => {
    it("applies a channel's overwrite in the threads inside it", () => {
      const stored = { command: [channel(GENERAL.id, false)] };
      expect(use({ stored })).toEqual({ error: "MISSING_PERMISSIONS", reason: "The permissions of /ban deny use in #general." });
      expect(reasonOf({ stored, channel: THREAD })).toBe("The permissions of /ban deny use in #general.");
    });

    it("lets the command's overwrite for the channel beat the app's", () => {
      expect(use({ stored: { command: [channel(GENERAL.id, true)], application: [channel(GENERAL.id, false)] } })).toBeNull();
      expect(reasonOf({ stored: { command: [channel(GENERAL.id, false)], application: [channel(GENERAL.id, true)] } })).toBe(
        "The permissions of /ban deny use in #general.",
      );
      expect(reasonOf({ stored: { application: [channel(GENERAL.id, false)] } })).toBe("The permissions of this app deny use in #general.");
    });

    it("asks All Channels only where no list names the channel, the command's before the app's", () => {
      expect(use({ stored: { command: [channel(ALL_CHANNELS, false)], application: [channel(GENERAL.id, true)] } })).toBeNull();
      expect(reasonOf({ stored: { application: [channel(ALL_CHANNELS, false)] } })).toBe("The permissions of this app deny use in all channels.");
      expect(use({ stored: { command: [channel(ALL_CHANNELS, true)], application: [channel(ALL_CHANNELS, false)] } })).toBeNull();
      expect(reasonOf({ stored: { command: [channel(ALL_CHANNELS, false)], application: [channel(ALL_CHANNELS, true)] } })).toBe(
        "The permissions of /ban deny use in all channels.",
      );
    });
  });

  describe("the member check", () => {
    const moderator = member({ roles: [MODS, MUTED] });

    it("asks the member's own overwrite before their roles, and their roles before @everyone", () => {
      expect(use({ member: moderator, stored: { command: [user(ME, true), role(MUTED.id, false)] } })).toBeNull();
      expect(reasonOf({ member: moderator, stored: { command: [user(ME, false), role(MODS.id, true)] } })).toBe("The permissions of /ban deny you.");
      expect(use({ member: moderator, stored: { command: [role(GUILD, false), role(MODS.id, true)] } })).toBeNull();
      expect(reasonOf({ stored: { command: [role(GUILD, false), role(MODS.id, true)] } })).toBe("The permissions of /ban deny @everyone.");
    });

    it("lets any role's allow win over the member's other roles' denials, and names every role that denies", () => {
      expect(use({ member: moderator, stored: { command: [role(MODS.id, true), role(MUTED.id, false)] } })).toBeNull();
      expect(reasonOf({ member: moderator, stored: { command: [role(MODS.id, false), role(MUTED.id, false)] } })).toBe(
        "The permissions of /ban deny the Moderators and Muted roles.",
      );
      expect(reasonOf({ member: moderator, stored: { application: [role(MUTED.id, false)] } })).toBe("The permissions of this app deny the Muted role.");
    });

    it("lets the app-level list deny, but not lift default_member_permissions; the command's own list lifts both", () => {
      const command = { ...BAN, default_member_permissions: P.BanMembers.toString() };
      expect(reasonOf({ stored: { application: [role(GUILD, false)] } })).toBe("The permissions of this app deny @everyone.");
      expect(reasonOf({ command, stored: { application: [user(ME, true)] } })).toBe("Only members with Ban members may use /ban by default.");
      expect(use({ command, stored: { command: [user(ME, true)] } })).toBeNull();
      expect(use({ command, stored: { command: [role(GUILD, true)], application: [role(GUILD, false)] } })).toBeNull();
    });

    it('reads default_member_permissions "0" as administrators only, null as everyone, bits as all of them', () => {
      expect(reasonOf({ command: { ...BAN, default_member_permissions: "0" } })).toBe("Only administrators may use /ban by default.");
      expect(use({ command: { ...BAN, default_member_permissions: null } })).toBeNull();
      const both = { ...BAN, default_member_permissions: (P.KickMembers | P.BanMembers).toString() };
      expect(reasonOf({ command: both, member: member({ permissions: MEMBER_PERMISSIONS | P.BanMembers }) })).toBe(
        "Only members with Kick members and Ban members may use /ban by default.",
      );
      expect(use({ command: both, member: member({ permissions: MEMBER_PERMISSIONS | P.KickMembers | P.BanMembers }) })).toBeNull();
    });
  });

  describe("in a guild on the old logic", () => {
    it("lets a configured app-level list ignore default_member_permissions", () => {
      const useCase = { command: { ...BAN, default_member_permissions: P.BanMembers.toString() }, stored: { application: [role(MODS.id, true)] } };
      expect(use({ ...useCase, features: OLD })).toBeNull();
      expect(use(useCase)).not.toBeNull();
    });

    it("lets a command's own list ignore the app-level list altogether", () => {
      const appDenies = { command: [user(ME, true)], application: [channel(ALL_CHANNELS, false), role(GUILD, false)] };
      expect(use({ stored: appDenies, features: OLD })).toBeNull();
      expect(reasonOf({ stored: appDenies })).toBe("The permissions of this app deny use in all channels.");
      const otherChannelOnly = { command: [channel("23", true)], application: [role(GUILD, false)] };
      expect(use({ stored: otherChannelOnly, features: OLD })).toBeNull();
      expect(reasonOf({ stored: otherChannelOnly })).toBe("The permissions of this app deny @everyone.");
    });

    it("still asks the one list's overwrites, and default_member_permissions where no list is configured", () => {
      expect(reasonOf({ stored: { command: [channel(GENERAL.id, false)] }, channel: THREAD, features: OLD })).toBe(
        "The permissions of /ban deny use in #general.",
      );
      expect(reasonOf({ stored: { application: [user(ME, false)] }, features: OLD })).toBe("The permissions of this app deny you.");
      expect(reasonOf({ command: { ...BAN, default_member_permissions: "0" }, features: OLD })).toBe("Only administrators may use /ban by default.");
    });
  });

  it("never refuses the owner or an administrator a command the channel may carry, whatever is stored", () => {
    const overwrite = fc.record({
      id: fc.constantFrom(GUILD, ALL_CHANNELS, MODS.id, ME, GENERAL.id),
      type: fc.constantFrom(T.Role, T.User, T.Channel),
      permission: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(overwrite, { maxLength: 8 }),
        fc.array(overwrite, { maxLength: 8 }),
        fc.constantFrom(null, "0", P.BanMembers.toString()),
        fc.boolean(),
        fc.boolean(),
        (own, app, dmp, isOld, isOwner) => {
          const exempt = isOwner ? member({ isOwner, permissions: ALL_PERMISSIONS, roles: [MODS] }) : member({ permissions: P.Administrator, roles: [MODS] });
          const useCase = { stored: { command: own, application: app }, command: { ...BAN, default_member_permissions: dmp }, features: isOld ? OLD : [] };
          expect(use({ ...useCase, member: exempt })).toBeNull();
        },
      ),
    );
  });

  it("lets the member's own command-level overwrite decide the member check in v2, whatever the app's list and the default", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.boolean(), { maxLength: 3 }), fc.constantFrom(null, "0"), (allowed, app, dmp) => {
        const application = app.map((permission, index) => [user(ME, permission), role(GUILD, permission), role(MODS.id, permission)][index]!);
        const denial = use({
          member: member({ roles: [MODS] }),
          stored: { command: [user(ME, allowed)], application },
          command: { ...BAN, default_member_permissions: dmp },
        });
        expect(denial === null).toBe(allowed);
      }),
    );
  });
});

const EDITOR_PERMISSIONS = P.ManageGuild | P.ManageRoles | P.UseApplicationCommands;
const TARGETS: CommandPermissionTargets = {
  roles: [
    { id: GUILD, name: "@everyone", position: 0 },
    { ...MUTED, position: 2 },
    { ...MODS, position: 5 },
    { id: "13", name: "Admins", position: 9 },
  ],
  memberIds: new Set([ME, "32"]),
  channels: [
    { id: GENERAL.id, name: "general", isViewable: true },
    { id: "23", name: "staff", isViewable: false },
  ],
};
const bearer = (scopes = ["applications.commands.permissions.update"], applicationId = APP_ID): Actor => ({
  kind: "bearer",
  userId: ME,
  applicationId,
  scopes: new Set(scopes),
});
const editor = (more: Partial<CommandMember> = {}, topRole: CommandPermissionsEditInput["editor"]["topRole"] = { id: MODS.id, position: 5 }) => ({
  ...member({ roles: [MODS], permissions: EDITOR_PERMISSIONS, ...more }),
  topRole,
});
const edit = (more: Partial<CommandPermissionsEditInput> = {}) =>
  commandPermissionsEditDenial({
    actor: bearer(),
    applicationId: APP_ID,
    guild: { id: GUILD, features: [] },
    editor: editor(),
    command: BAN,
    stored: { command: [], application: [] },
    overwrites: [],
    targets: TARGETS,
    ...more,
  });

describe("commandPermissionsEditDenial", () => {
  it("lets a member with Manage guild and Manage roles name roles below theirs, channels they see, members and the constants", () => {
    const overwrites = [role(MUTED.id, true), role(GUILD, false), channel(ALL_CHANNELS, false), channel(GENERAL.id, true), user("32", true)];
    expect(edit({ overwrites })).toBeNull();
    expect(edit({ overwrites, command: null })).toBeNull();
  });

  it("takes a person's own authorization with the scope: never a bot's, nor another app's", () => {
    const bot: Actor = { kind: "bot", userId: APP_ID, applicationId: APP_ID, scopes: new Set() };
    expect(edit({ actor: bot })).toEqual({
      error: "BOTS_CANNOT_USE_ENDPOINT",
      reason: "A bot cannot change command permissions: a member authorizes the app to do it for them.",
    });
    expect(edit({ actor: bearer(["identify", "applications.commands"]) })).toEqual({
      error: "MISSING_ACCESS",
      reason: "This authorization does not let the app update command permissions.",
    });
    expect(edit({ actor: bearer(undefined, "2001") })).toMatchObject({ error: "NOT_AUTHORIZED_FOR_APPLICATION" });
    expect(edit({ actor: { kind: "user", userId: ME, applicationId: null, scopes: new Set() } })).toBeNull();
  });

  it("needs Manage guild and Manage roles", () => {
    expect(edit({ editor: editor({ permissions: P.ManageRoles | P.UseApplicationCommands }) })).toEqual({
      error: "MISSING_PERMISSIONS",
      reason: "Needs Manage guild.",
    });
    expect(edit({ editor: editor({ permissions: P.ManageGuild | P.UseApplicationCommands }) })?.reason).toBe("Needs Manage roles.");
  });

  it("needs the editor to be able to use the command as things stand", () => {
    const stored = { command: [role(GUILD, false)], application: [] };
    expect(edit({ stored })?.reason).toBe("You can only change the permissions of what you may use yourself. The permissions of /ban deny @everyone.");
    expect(edit({ command: { ...BAN, default_member_permissions: P.BanMembers.toString() } })?.reason).toBe(
      "You can only change the permissions of what you may use yourself. Only members with Ban members may use /ban by default.",
    );
    expect(edit({ editor: editor({ permissions: P.ManageGuild | P.ManageRoles }) })?.reason).toBe(
      "You can only change the permissions of what you may use yourself. Needs Use application commands.",
    );
    expect(edit({ stored, editor: editor({ isOwner: true, permissions: ALL_PERMISSIONS }) })).toBeNull();
  });

  it("asks the app-level list alone of whoever edits the app-level entry", () => {
    const stored = { command: [], application: [user(ME, false)] };
    expect(edit({ command: null, stored })?.reason).toBe(
      "You can only change the permissions of what you may use yourself. The permissions of this app deny you.",
    );
    expect(edit({ command: null, stored: { command: [role(GUILD, false)], application: [] } })).toBeNull();
  });

  it("refuses a role that is not below the editor's highest, unless they own the guild or administer it", () => {
    expect(edit({ overwrites: [role("13", true)] })).toEqual({ error: "MISSING_PERMISSIONS", reason: "The Admins role is not below your highest role." });
    expect(edit({ overwrites: [role(MODS.id, true)] })?.reason).toBe("The Moderators role is not below your highest role.");
    expect(edit({ overwrites: [role(MUTED.id, true)], editor: editor({ roles: [] }, null) })?.reason).toBe("The Muted role is not below your highest role.");
    expect(edit({ overwrites: [role("13", true)], editor: editor({ isOwner: true, permissions: ALL_PERMISSIONS }) })).toBeNull();
    expect(edit({ overwrites: [role("13", true)], editor: editor({ permissions: ALL_PERMISSIONS }) })).toBeNull();
  });

  it("refuses a channel the editor cannot view, never @everyone or All Channels", () => {
    expect(edit({ overwrites: [channel("23", true)] })).toEqual({ error: "MISSING_ACCESS", reason: "You cannot view #staff." });
    expect(edit({ overwrites: [role(GUILD, true), channel(ALL_CHANNELS, true)], editor: editor({ roles: [] }, null) })).toBeNull();
  });
});

describe("commandPermissionsListError", () => {
  const fieldCode = (overwrites: CommandPermissionOverwrite[], at: string[]) => {
    let node: unknown = commandPermissionsListError(GUILD, overwrites, TARGETS)?.toBody().errors;
    for (const key of at) node = (node as Record<string, unknown> | undefined)?.[key];
    return (node as { _errors?: { code: string }[] } | undefined)?._errors?.[0]?.code;
  };

  it("takes at most 100 overwrites", () => {
    const full = Array.from({ length: MAX_COMMAND_PERMISSION_OVERWRITES }, () => user(ME, true));
    expect(commandPermissionsListError(GUILD, full, TARGETS)).toBeNull();
    expect(fieldCode([...full, user(ME, true)], ["permissions"])).toBe("BASE_TYPE_MAX_LENGTH");
    expect(commandPermissionsListError(GUILD, [...full, user(ME, true)], TARGETS)?.code).toBe(50035);
  });

  it("refuses an id that is no role, member or channel of the guild as its type says, the constants aside", () => {
    expect(commandPermissionsListError(GUILD, [role(GUILD, true), channel(ALL_CHANNELS, false), user("32", true), channel("23", true)], TARGETS)).toBeNull();
    expect(fieldCode([user(ME, true), role("14", true)], ["permissions", "1", "id"])).toBe("ROLE_INVALID");
    expect(fieldCode([user("33", true)], ["permissions", "0", "id"])).toBe("USER_INVALID");
    expect(fieldCode([channel("24", true)], ["permissions", "0", "id"])).toBe("CHANNEL_INVALID");
    expect(fieldCode([role(ALL_CHANNELS, true)], ["permissions", "0", "id"])).toBe("ROLE_INVALID");
    expect(fieldCode([channel(GUILD, true)], ["permissions", "0", "id"])).toBe("CHANNEL_INVALID");
  });
});
