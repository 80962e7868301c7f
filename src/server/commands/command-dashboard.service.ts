// What the dashboard shows of application commands: an application's registries as its owner
// reads them, and a guild's installed applications' commands with their permissions, each with
// why the viewer may not change or use them, decided by the rules the registry enforces
// (command-permission-rules.ts). Edits call setCommandPermissions, as REST does.
import {
  ApplicationCommandPermissionType as T,
  ApplicationCommandType,
  ChannelType,
  PermissionFlagsBits as P,
  type APIApplicationCommand,
} from "discord-api-types/v10";
import type { ApplicationCommandPermissions } from "~/generated/prisma/client.ts";
import { ownedApplication } from "~/server/applications/application-dashboard.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import type { ErrorTree, FieldError } from "~/server/errors.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { listGuildIntegrations } from "~/server/integrations/integration.service.ts";
import { manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import { enforce, reasonOf } from "~/server/permissions/denial.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { GLOBAL_SCOPE, toCommandObject } from "./command.dto.ts";
import { COMMAND_LIMITS, DAILY_COMMAND_CREATES } from "./command-limits.ts";
import {
  allChannelsId,
  commandPermissionsEditDenial,
  commandPermissionsListError,
  commandUseDenial,
  MAX_COMMAND_PERMISSION_OVERWRITES,
  type CommandPermissionOverwrite,
  type CommandPermissionTargets,
  type CommandSubject,
  type StoredCommandPermissions,
} from "./command-permission-rules.ts";
import { commandMemberOf, commandPermissionTargetsOf, commandSubjectOf, storedLists, targetCommand } from "./command-permissions.service.ts";
import { hasCommandsInstall, holdsCommands, requireCommandsInstall } from "./command-scope.ts";

/** How full one registry is of one command type. */
type CommandLimitUse = { type: ApplicationCommandType; used: number; limit: number };

/** One registry (global, or a guild's) as its owner reads it. */
type RegistryView = { commands: APIApplicationCommand[]; limits: CommandLimitUse[]; createsToday: number };

export type ApplicationCommandsView = {
  global: RegistryView;
  /** Guilds holding the application's guild commands, by name; `installed` false where it lost applications.commands there. */
  guilds: (RegistryView & { guild: { id: string; name: string }; installed: boolean })[];
  dailyCreates: number;
};

/** An overwrite with what it names, as people call it ("@everyone", "#general", "All channels"). */
type NamedOverwrite = CommandPermissionOverwrite & { name: string };

type GuildCommandRow = {
  command: APIApplicationCommand;
  permissions: NamedOverwrite[];
  /** Why the viewer may not replace this command's permissions; null when they may. */
  editDenial: string | null;
  /** Why the viewer may not run it in `useChannel`; null when they may. */
  useDenial: string | null;
};

type InstalledApplication = {
  id: string;
  name: string;
  icon: string | null;
  /** Installed with applications.commands: without it the application holds no commands here. */
  hasCommands: boolean;
  /** The app-level entry ("All commands"): what applies to commands without their own overwrites. */
  all: { permissions: NamedOverwrite[]; editDenial: string | null };
  commands: GuildCommandRow[];
};

export type GuildCommandsView = {
  /** The channel the viewer's `useDenial`s are decided for: the first text channel they can view. */
  useChannel: { id: string; name: string } | null;
  applications: InstalledApplication[];
};

const DAY_MS = 24 * 60 * 60 * 1000;
/** A guild registry holds no entry point; the global one may hold one. */
const GUILD_TYPES = [ApplicationCommandType.ChatInput, ApplicationCommandType.User, ApplicationCommandType.Message];
const GLOBAL_TYPES = [...GUILD_TYPES, ApplicationCommandType.PrimaryEntryPoint];

/** The owner's view of an application's commands: global ones, then each guild's, with how full each registry is. */
export async function listOwnApplicationCommands(ctx: ServiceContext, input: { applicationId: string }): Promise<ApplicationCommandsView> {
  const app = await ownedApplication(ctx, input.applicationId);
  const [rows, creates] = await Promise.all([
    ctx.db.applicationCommand.findMany({ where: { applicationId: app.id }, orderBy: { id: "asc" } }),
    ctx.db.applicationCommandCreate.findMany({
      where: { applicationId: app.id, createdAt: { gte: new Date(Date.now() - DAY_MS) } },
      select: { scope: true },
    }),
  ]);
  const registry = (scope: string, types: readonly number[]): RegistryView => {
    const commands = rows.filter((row) => row.scope === scope);
    return {
      commands: commands.map((row) => toCommandObject(row)),
      limits: types.map((type) => ({ type, used: commands.filter((row) => row.type === type).length, limit: COMMAND_LIMITS[type] ?? 0 })),
      createsToday: creates.filter((create) => create.scope === scope).length,
    };
  };
  const guildIds = [...new Set(rows.flatMap((row) => (row.guildId ? [row.guildId] : [])))];
  const guilds = await ctx.db.guild.findMany({ where: { id: { in: guildIds } }, select: { id: true, name: true } });
  const installed = await Promise.all(guilds.map((guild) => hasCommandsInstall(ctx.db, app.id, guild.id)));
  return {
    global: registry(GLOBAL_SCOPE, GLOBAL_TYPES),
    guilds: guilds
      .map((guild, index) => ({ ...registry(guild.id, GUILD_TYPES), guild, installed: installed[index] ?? false }))
      .sort((a, b) => a.guild.name.localeCompare(b.guild.name)),
    dailyCreates: DAILY_COMMAND_CREATES,
  };
}

/**
 * The guild's Integrations page: each installed application with the commands usable here (its
 * global ones, then this guild's) and their permissions. Reading which applications are
 * installed is the integrations list's rule (Manage guild).
 */
export async function listGuildCommands(ctx: ServiceContext, input: { guildId: string }): Promise<GuildCommandsView> {
  const integrations = await listGuildIntegrations(ctx, input);
  const access = await loadGuildAccess(ctx, input.guildId);
  const guildId = access.guild.id;
  const installs = integrations.flatMap((integration) =>
    integration.application ? [{ application: integration.application, hasCommands: holdsCommands(integration.scopes ?? []) }] : [],
  );
  const appIds = installs.filter((install) => install.hasCommands).map((install) => install.application.id);
  const [commands, stored] = await Promise.all([
    ctx.db.applicationCommand.findMany({
      where: { applicationId: { in: appIds }, scope: { in: [GLOBAL_SCOPE, guildId] } },
      orderBy: { id: "asc" },
    }),
    ctx.db.applicationCommandPermissions.findMany({ where: { guildId, applicationId: { in: appIds } } }),
  ]);
  const names = await overwriteNames(ctx.db, access, stored.flatMap(listOf));
  const useChannel = await firstViewableTextChannel(access);
  const decide = decisionsFor(ctx, access);
  return {
    useChannel: useChannel && { id: useChannel.id, name: useChannel.name },
    applications: installs.map(({ application, hasCommands }) => {
      const lists = (targetId: string): StoredCommandPermissions => ({
        command: targetId === application.id ? [] : listIn(stored, application.id, targetId),
        application: listIn(stored, application.id, application.id),
      });
      const appLists = lists(application.id);
      return {
        id: application.id,
        name: application.name,
        icon: application.icon,
        hasCommands,
        all: { permissions: appLists.application.map(names), editDenial: decide.edit(application.id, null, appLists) },
        // Global commands first, as they apply everywhere; then this guild's.
        commands: commands
          .filter((row) => row.applicationId === application.id)
          .sort((a, b) => Number(a.guildId !== null) - Number(b.guildId !== null))
          .map((row) => {
            const subject = commandSubjectOf(row);
            const rowLists = lists(row.id);
            return {
              command: toCommandObject(row),
              permissions: rowLists.command.map(names),
              editDenial: decide.edit(application.id, subject, rowLists),
              useDenial: useChannel ? decide.use(useChannel, subject, rowLists) : null,
            };
          }),
      };
    }),
  };
}

type EditorInput = { guildId: string; applicationId: string; commandId: string };

/** A role or channel the editor may name, or why they may not. */
type EditorTarget = { id: string; name: string; denial: string | null };

export type CommandPermissionsEditor = {
  /** "/ban", "the Report command", or null for the app-level entry. */
  command: { name: string; type: ApplicationCommandType } | null;
  permissions: NamedOverwrite[];
  editDenial: string | null;
  /** Every role, highest first, @everyone last. */
  roles: (EditorTarget & { color: number })[];
  /** The channels a command runs in (no categories), in the guild's order. */
  channels: (EditorTarget & { type: ChannelType })[];
  everyoneId: string;
  allChannelsId: string;
  maxOverwrites: number;
  /** Stored overwrites the list's own rules refuse now (a role deleted since, a member who left): a save is refused while they stay. */
  listProblems: { id: string; type: T; reason: string }[];
};

/**
 * The editor of one list (a command's, or the app-level entry's when `commandId` is the
 * application's): what it holds, and for each role and channel whether the viewer may name it,
 * as setCommandPermissions would decide.
 */
export async function commandPermissionsEditor(ctx: ServiceContext, input: EditorInput): Promise<CommandPermissionsEditor> {
  const access = await loadGuildAccess(ctx, input.guildId);
  // Which applications are installed is the integrations list's to tell.
  enforce(manageGuildDenial(access));
  await requireCommandsInstall(ctx.db, input.applicationId, input.guildId);
  const command = await targetCommand(ctx.db, input);
  const guildId = access.guild.id;
  const stored = await storedLists(ctx.db, input, input.commandId);
  const own = command ? stored.command : stored.application;
  const channels = (await access.state.channels()).rows.filter((row) => row.type !== ChannelType.GuildCategory);
  // Every role and channel as one list, so the targets know which channels the viewer can view.
  const every: CommandPermissionOverwrite[] = [
    ...access.roles.map((role) => ({ id: role.id, type: T.Role, permission: true })),
    ...channels.map((channel) => ({ id: channel.id, type: T.Channel, permission: true })),
  ];
  // The stored ones too, so the members they name are looked up.
  const targets = await commandPermissionTargetsOf(ctx.db, access, [...every, ...own]);
  const decide = decisionsFor(ctx, access);
  const naming = (overwrite: CommandPermissionOverwrite) => decide.edit(input.applicationId, command, stored, [overwrite], targets);
  const names = await overwriteNames(ctx.db, access, own);
  return {
    command: command && { name: command.name, type: command.type },
    permissions: own.map(names),
    editDenial: decide.edit(input.applicationId, command, stored),
    roles: access.roles.toReversed().map((role) => ({
      id: role.id,
      name: role.id === guildId ? "@everyone" : role.name,
      color: role.color,
      denial: naming({ id: role.id, type: T.Role, permission: true }),
    })),
    channels: channels.map((channel) => ({
      id: channel.id,
      name: channelLabel(channel),
      type: channel.type,
      denial: naming({ id: channel.id, type: T.Channel, permission: true }),
    })),
    everyoneId: guildId,
    allChannelsId: allChannelsId(guildId),
    maxOverwrites: MAX_COMMAND_PERMISSION_OVERWRITES,
    listProblems: own.flatMap((overwrite) => {
      const reason = listProblemOf(guildId, overwrite, targets);
      return reason ? [{ id: overwrite.id, type: overwrite.type, reason }] : [];
    }),
  };
}

/** The decisions for the viewer in one guild: replacing a list, and running a command in a channel. */
function decisionsFor(ctx: ServiceContext, access: GuildAccess) {
  const guild = { id: access.guild.id, features: parseFeatures(access.guild.features) };
  const member = commandMemberOf(access);
  const noTargets: CommandPermissionTargets = { roles: access.roles, memberIds: new Set(), channels: [] };
  return {
    edit: (
      applicationId: string,
      command: CommandSubject | null,
      stored: StoredCommandPermissions,
      overwrites: readonly CommandPermissionOverwrite[] = [],
      targets = noTargets,
    ): string | null =>
      reasonOf(
        commandPermissionsEditDenial({
          actor: ctx.actor,
          applicationId,
          guild,
          editor: { ...member, topRole: access.topRole },
          command,
          stored,
          overwrites,
          targets,
        }),
      ),
    use: (channel: UseChannel, command: CommandSubject, stored: StoredCommandPermissions): string | null =>
      reasonOf(
        commandUseDenial({
          guild,
          member: { ...member, permissions: channel.permissions },
          channel: { id: channel.id, name: channel.name, threadParent: null, nsfw: channel.nsfw },
          command,
          stored,
        }),
      ),
  };
}

type UseChannel = { id: string; name: string; nsfw: boolean; permissions: bigint };

/** The first text channel (in the guild's order) the viewer can view, with their permissions there. */
async function firstViewableTextChannel(access: GuildAccess): Promise<UseChannel | null> {
  for (const row of (await access.state.channels()).rows) {
    if (row.type !== ChannelType.GuildText) continue;
    const permissions = channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) });
    if (hasPermission(permissions, P.ViewChannel)) return { id: row.id, name: row.name ?? row.id, nsfw: row.nsfw, permissions };
  }
  return null;
}

/** What the list's own rules say of one overwrite (commandPermissionsListError's field message), as a save naming it would be told. */
function listProblemOf(guildId: string, overwrite: CommandPermissionOverwrite, targets: CommandPermissionTargets): string | null {
  let node: ErrorTree | FieldError[] | undefined = commandPermissionsListError(guildId, [overwrite], targets)?.errors;
  for (const key of ["permissions", "0", "id"]) node = node && !Array.isArray(node) ? node[key] : undefined;
  return node && !Array.isArray(node) ? (node._errors?.[0]?.message ?? null) : null;
}

/** "#general", or "General (voice)": a voice channel's name takes no "#". */
function channelLabel(channel: { id: string; name: string | null; type: number }): string {
  const name = channel.name ?? channel.id;
  if (channel.type === ChannelType.GuildVoice) return `${name} (voice)`;
  return channel.type === ChannelType.GuildStageVoice ? `${name} (stage)` : `#${name}`;
}

function listOf(row: ApplicationCommandPermissions): CommandPermissionOverwrite[] {
  return JSON.parse(row.permissions) as CommandPermissionOverwrite[];
}

function listIn(rows: readonly ApplicationCommandPermissions[], applicationId: string, targetId: string): CommandPermissionOverwrite[] {
  const row = rows.find((candidate) => candidate.applicationId === applicationId && candidate.targetId === targetId);
  return row ? listOf(row) : [];
}

/** Names what overwrites point at; a role, channel or member since gone reads as such. */
async function overwriteNames(db: Db, access: GuildAccess, overwrites: readonly CommandPermissionOverwrite[]) {
  const guildId = access.guild.id;
  const userIds = [...new Set(overwrites.filter((o) => o.type === T.User).map((o) => o.id))];
  const members =
    userIds.length > 0 ? await db.member.findMany({ where: { guildId, userId: { in: userIds } }, select: { userId: true, nick: true, user: true } }) : [];
  const people = new Map(members.map((m) => [m.userId, m.nick ?? m.user.globalName ?? m.user.username]));
  const roles = new Map(access.roles.map((role) => [role.id, role.name]));
  const channels = (await access.state.channels()).byId;
  const nameOf = ({ id, type }: CommandPermissionOverwrite): string => {
    if (type === T.Role) return id === guildId ? "@everyone" : (roles.get(id) ?? "Deleted role");
    if (type === T.Channel) {
      const channel = channels.get(id);
      return id === allChannelsId(guildId) ? "All channels" : channel ? channelLabel(channel) : "Deleted channel";
    }
    return people.get(id) ?? "Former member";
  };
  return (overwrite: CommandPermissionOverwrite): NamedOverwrite => ({ ...overwrite, name: nameOf(overwrite) });
}
