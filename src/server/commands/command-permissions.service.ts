// A guild's permissions for an application's commands (v2): read by the application, replaced
// by a person who may (their Bearer token through the application, or the dashboard), announced
// to the application alone and recorded in the audit log.
import {
  ApplicationCommandPermissionType,
  AuditLogEvent,
  GatewayDispatchEvents,
  PermissionFlagsBits as P,
  type APIGuildApplicationCommandPermissions,
} from "discord-api-types/v10";
import type { ApplicationCommand, ApplicationCommandPermissions } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { runChange } from "~/server/events/change.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { GLOBAL_SCOPE } from "./command.dto.ts";
import {
  commandPermissionsEditDenial,
  commandPermissionsListError,
  type CommandMember,
  type CommandPermissionOverwrite,
  type CommandPermissionTargets,
  type CommandSubject,
  type StoredCommandPermissions,
} from "./command-permission-rules.ts";
import { commandScopeFor, requireCommandsInstall } from "./command-scope.ts";
import { definitionOf } from "./command.dto.ts";

type GuildInput = { applicationId: string; guildId: string };
type TargetInput = GuildInput & { commandId: string };

/** GET …/guilds/{guild}/commands/permissions: every entry the guild holds for the application (its commands' and the app-level one). */
export async function listCommandPermissions(ctx: ServiceContext, input: GuildInput): Promise<APIGuildApplicationCommandPermissions[]> {
  await commandScopeFor(ctx, input);
  const rows = await ctx.db.applicationCommandPermissions.findMany({
    where: { applicationId: input.applicationId, guildId: input.guildId },
    orderBy: { targetId: "asc" },
  });
  return rows.map(toPermissionsObject);
}

/** GET …/commands/{command}/permissions: 10063 for a command not of this guild's registry or the global one, 10066 while none are set. */
export async function getCommandPermissions(ctx: ServiceContext, input: TargetInput): Promise<APIGuildApplicationCommandPermissions> {
  await commandScopeFor(ctx, input);
  await targetCommand(ctx.db, input);
  const row = await storedRow(ctx.db, input, input.commandId);
  if (!row) throw new ApiError("UNKNOWN_APPLICATION_COMMAND_PERMISSIONS");
  return toPermissionsObject(row);
}

/**
 * PUT …/commands/{command}/permissions (the command's id, or the application's for the app-level
 * entry): the list replaces what was set. Refused as commandPermissionsEditDenial decides; an
 * empty list clears the entry. APPLICATION_COMMAND_PERMISSIONS_UPDATE reaches the application alone.
 */
export async function setCommandPermissions(
  ctx: ServiceContext,
  input: TargetInput & { permissions: readonly CommandPermissionOverwrite[] },
): Promise<APIGuildApplicationCommandPermissions> {
  await requireCommandsInstall(ctx.db, input.applicationId, input.guildId);
  const command = await targetCommand(ctx.db, input);
  const access = await loadGuildAccess(ctx, input.guildId);
  const stored = await storedLists(ctx.db, input, input.commandId);
  const targets = await commandPermissionTargetsOf(ctx.db, access, input.permissions);
  // Who may edit comes first: a bot or an outsider learns nothing of the guild's roles and channels from the list's errors.
  enforce(
    commandPermissionsEditDenial({
      actor: ctx.actor,
      applicationId: input.applicationId,
      guild: { id: input.guildId, features: parseFeatures(access.guild.features) },
      editor: { ...commandMemberOf(access), topRole: access.topRole },
      command,
      stored,
      overwrites: input.permissions,
      targets,
    }),
  );
  const listError = commandPermissionsListError(input.guildId, input.permissions, targets);
  if (listError) throw listError;
  const permissions = dedupe(input.permissions);
  return runChange(ctx, async ({ tx, emit, audit }) => {
    const key = { guildId_applicationId_targetId: { guildId: input.guildId, applicationId: input.applicationId, targetId: input.commandId } };
    const before = await tx.applicationCommandPermissions.findUnique({ where: key });
    const previous = before ? (JSON.parse(before.permissions) as CommandPermissionOverwrite[]) : [];
    if (permissions.length === 0) await tx.applicationCommandPermissions.deleteMany({ where: key.guildId_applicationId_targetId });
    else {
      const data = { permissions: JSON.stringify(permissions) };
      await tx.applicationCommandPermissions.upsert({ where: key, update: data, create: { ...key.guildId_applicationId_targetId, ...data } });
    }
    const object: APIGuildApplicationCommandPermissions = { id: input.commandId, application_id: input.applicationId, guild_id: input.guildId, permissions };
    await emit(GatewayDispatchEvents.ApplicationCommandPermissionsUpdate, object);
    const changes = changesOf(previous, permissions);
    if (changes.length > 0) {
      await audit({
        guildId: input.guildId,
        actionType: AuditLogEvent.ApplicationCommandPermissionUpdate,
        targetId: input.commandId,
        changes,
        options: { application_id: input.applicationId },
      });
    }
    return object;
  });
}

function toPermissionsObject(row: ApplicationCommandPermissions): APIGuildApplicationCommandPermissions {
  return {
    id: row.targetId,
    application_id: row.applicationId,
    guild_id: row.guildId,
    permissions: JSON.parse(row.permissions) as CommandPermissionOverwrite[],
  };
}

/** The command whose permissions these are: a global one, or one of this guild's; null for the application's own id (the app-level entry). */
export async function targetCommand(db: Db, input: TargetInput): Promise<CommandSubject | null> {
  if (input.commandId === input.applicationId) return null;
  const row = await db.applicationCommand.findFirst({
    where: { id: input.commandId, applicationId: input.applicationId, scope: { in: [GLOBAL_SCOPE, input.guildId] } },
  });
  if (!row) throw new ApiError("UNKNOWN_APPLICATION_COMMAND");
  return commandSubjectOf(row);
}

/** What the permission decisions read of a stored command. */
export function commandSubjectOf(row: ApplicationCommand): CommandSubject {
  const def = definitionOf(row);
  return { name: row.name, type: row.type, default_member_permissions: def.default_member_permissions, nsfw: def.nsfw };
}

async function storedRow(db: Db, input: GuildInput, targetId: string): Promise<ApplicationCommandPermissions | null> {
  return db.applicationCommandPermissions.findUnique({
    where: { guildId_applicationId_targetId: { guildId: input.guildId, applicationId: input.applicationId, targetId } },
  });
}

/** The command's own list and the app-level one, [] where none is stored. */
export async function storedLists(db: Db, input: GuildInput, commandId: string): Promise<StoredCommandPermissions> {
  const rows = await db.applicationCommandPermissions.findMany({
    where: { guildId: input.guildId, applicationId: input.applicationId, targetId: { in: [commandId, input.applicationId] } },
  });
  const listOf = (targetId: string) => {
    const row = rows.find((candidate) => candidate.targetId === targetId);
    return row ? (JSON.parse(row.permissions) as CommandPermissionOverwrite[]) : [];
  };
  return { command: commandId === input.applicationId ? [] : listOf(commandId), application: listOf(input.applicationId) };
}

/** A member as the decisions see them: guild-level permissions, roles by name (no @everyone). */
export function commandMemberOf(access: GuildAccess): CommandMember {
  const names = new Map(access.roles.map((role) => [role.id, role.name]));
  return {
    userId: access.userId,
    roles: access.memberRoleIds.filter((id) => id !== access.guild.id).map((id) => ({ id, name: names.get(id) ?? id })),
    isOwner: access.isOwner,
    permissions: access.permissions,
    standing: access,
  };
}

/** Every role of the guild, and the members and channels among the ids a list names, as the editor sees them. */
export async function commandPermissionTargetsOf(
  db: Db,
  access: GuildAccess,
  overwrites: readonly CommandPermissionOverwrite[],
): Promise<CommandPermissionTargets> {
  const idsOf = (type: ApplicationCommandPermissionType) => [...new Set(overwrites.filter((o) => o.type === type).map((o) => o.id))];
  const userIds = idsOf(ApplicationCommandPermissionType.User);
  const members =
    userIds.length > 0 ? await db.member.findMany({ where: { guildId: access.guild.id, userId: { in: userIds } }, select: { userId: true } }) : [];
  const channels = await access.state.channels();
  const named = idsOf(ApplicationCommandPermissionType.Channel).flatMap((id) => {
    const channel = channels.byId.get(id);
    if (!channel) return [];
    const held = channelPermissions(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) });
    return [{ id, name: channel.name ?? id, isViewable: hasPermission(held, P.ViewChannel) }];
  });
  return { roles: access.roles, memberIds: new Set(members.map((member) => member.userId)), channels: named };
}

/** One overwrite per target: the last one given for an id and type wins. */
function dedupe(overwrites: readonly CommandPermissionOverwrite[]): CommandPermissionOverwrite[] {
  const byTarget = new Map<string, CommandPermissionOverwrite>();
  for (const overwrite of overwrites)
    byTarget.set(`${overwrite.type}:${overwrite.id}`, { id: overwrite.id, type: overwrite.type, permission: overwrite.permission });
  return [...byTarget.values()];
}

/** The audit entry's changes, keyed by the overwrite's target, old and new overwrite as values. */
function changesOf(before: readonly CommandPermissionOverwrite[], after: readonly CommandPermissionOverwrite[]) {
  const ids = [...new Set([...before, ...after].map((overwrite) => overwrite.id))];
  return ids.flatMap((id) => {
    const old = before.find((overwrite) => overwrite.id === id);
    const next = after.find((overwrite) => overwrite.id === id);
    if (JSON.stringify(old) === JSON.stringify(next)) return [];
    return [{ key: id, ...(old && { old_value: old }), ...(next && { new_value: next }) }];
  });
}
