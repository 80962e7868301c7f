// Who may run an application command where, and who may replace its permissions in a guild
// (interactions.md 1.6, 1.8): pure decisions that the registry and the invocation enforce and
// the dashboard shows beside the controls they disable.
import { ApplicationCommandPermissionType, ApplicationCommandType, GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import { hasScope, type Actor } from "~/server/auth/actor.ts";
import { invalidField, type ApiError } from "~/server/errors.ts";
import { missingIn, type Denial, type Standing } from "~/server/permissions/denial.ts";
import { permissionLabel } from "~/server/permissions/permission-labels.ts";
import { canManageRole, hasPermission, parsePermissions, type RoleRank } from "~/server/permissions/permissions.ts";

const T = ApplicationCommandPermissionType;

/** One overwrite of a command's (or the app-level entry's) permissions: allow or deny a role, a member or a channel. */
export type CommandPermissionOverwrite = { id: string; type: ApplicationCommandPermissionType; permission: boolean };

/** The most overwrites one command, or the app-level entry, holds in a guild. */
export const MAX_COMMAND_PERMISSION_OVERWRITES = 100;

/** "All Channels" as a CHANNEL overwrite names it: the guild's id minus one. (@everyone is the guild's id, as a ROLE.) */
export function allChannelsId(guildId: string): string {
  return (BigInt(guildId) - 1n).toString();
}

/**
 * Whether the guild evaluates command permissions with the logic from before v2. The feature's
 * name misleads: a guild that still carries APPLICATION_COMMAND_PERMISSIONS_V2 has not moved to
 * v2 (change log 2022-11-17), so a new guild never carries it.
 */
export function usesOldCommandPermissions(features: readonly string[]): boolean {
  return features.includes(GuildFeature.ApplicationCommandPermissionsV2);
}

/** The guild a decision is made in. */
type CommandGuild = { id: string; features: readonly string[] };

/** Whose use is decided: `permissions` are theirs where they would use the command (in a channel, its overwrites applied). */
export type CommandMember = {
  userId: string;
  /** Their roles, without @everyone, with the names reasons give them. */
  roles: readonly { id: string; name: string }[];
  isOwner: boolean;
  permissions: bigint;
  standing: Standing;
};

/** The command, as its wire object has it. */
export type CommandSubject = { name: string; type: ApplicationCommandType; default_member_permissions: string | null; nsfw?: boolean };

/** A guild's stored overwrites that bear on one command: its own list and the app-level entry's, [] where none is stored. */
export type StoredCommandPermissions = { command: readonly CommandPermissionOverwrite[]; application: readonly CommandPermissionOverwrite[] };

/** Where the command would run. A thread names its parent, whose overwrites apply inside it; `nsfw` is the thread's parent's for a thread. */
export type CommandChannel = { id: string; name: string; threadParent: { id: string; name: string } | null; nsfw: boolean };

export type CommandUseInput = {
  guild: CommandGuild;
  member: CommandMember;
  channel: CommandChannel;
  command: CommandSubject;
  stored: StoredCommandPermissions;
};

/**
 * May this member run this command in this channel (1.6, 1.8): an age-restricted command only in
 * an age-restricted channel; then the owner and administrators always; others need Use
 * application commands there (and, for a USER command, to send messages), and the command's
 * permissions must allow both the channel and the member. Refusals are 50013.
 */
export function commandUseDenial(input: CommandUseInput): Denial | null {
  const { member, channel, command } = input;
  // Age restriction is no permission: administrators are held to it as well.
  if (command.nsfw && !channel.nsfw) return refuse(`This channel is not age-restricted, and ${labelOf(command)} is.`);
  if (isExempt(member)) return null;
  const where = channel.threadParent ? " in this thread" : " in this channel";
  // In threads the right to send is Send messages in threads, as for messages.
  const send = channel.threadParent ? P.SendMessagesInThreads : P.SendMessages;
  return (
    missingIn(member.standing, member.permissions, [P.UseApplicationCommands], where) ??
    (command.type === ApplicationCommandType.User ? missingIn(member.standing, member.permissions, [send], where) : null) ??
    channelRulesDenial(input) ??
    memberRulesDenial(input)
  );
}

/** What a new list names, as the guild has it: every role, and the members and channels among the ids the list names. */
export type CommandPermissionTargets = {
  roles: readonly (RoleRank & { name: string })[];
  memberIds: ReadonlySet<string>;
  /** `isViewable`: the editor may view it. */
  channels: readonly { id: string; name: string; isViewable: boolean }[];
};

export type CommandPermissionsEditInput = {
  actor: Actor;
  /** The application whose permissions are replaced (the path's). */
  applicationId: string;
  guild: CommandGuild;
  /** The editor, with their guild-level permissions. */
  editor: CommandMember & { topRole: RoleRank | null };
  /** The command whose list is replaced, or null for the app-level entry. */
  command: CommandSubject | null;
  /** What is stored now, by which the editor must be able to use the command before the change. */
  stored: StoredCommandPermissions;
  /** The new list. */
  overwrites: readonly CommandPermissionOverwrite[];
  targets: CommandPermissionTargets;
};

/**
 * May this person replace a command's permissions, or the app-level entry, in this guild (1.8):
 * a person's own authorization (never a bot's) with `applications.commands.permissions.update`,
 * Manage guild and Manage roles, the right to use what they change, and authority over every
 * role and channel the new list names. The list's own rules are `commandPermissionsListError`'s.
 */
export function commandPermissionsEditDenial(input: CommandPermissionsEditInput): Denial | null {
  const { editor } = input;
  const denial =
    authorizationDenial(input.actor, input.applicationId) ??
    missingIn(editor.standing, editor.permissions, [P.ManageGuild, P.ManageRoles]) ??
    editorUseDenial(input);
  if (denial) return denial;
  for (const overwrite of input.overwrites) {
    const refused = targetDenial(input, overwrite);
    if (refused) return refused;
  }
  return null;
}

/**
 * 50035 where a new list breaks its own rules: more than 100 overwrites (at `permissions`), or an
 * id (at `permissions.<n>.id`) that is no role, member or channel of the guild as its type says,
 * @everyone and All Channels aside. The field codes are unverified.
 */
export function commandPermissionsListError(
  guildId: string,
  overwrites: readonly CommandPermissionOverwrite[],
  targets: CommandPermissionTargets,
): ApiError | null {
  if (overwrites.length > MAX_COMMAND_PERMISSION_OVERWRITES)
    return invalidField(["permissions"], "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_COMMAND_PERMISSION_OVERWRITES} or fewer in length.`);
  const roleIds = new Set([guildId, ...targets.roles.map((role) => role.id)]);
  const channelIds = new Set([allChannelsId(guildId), ...targets.channels.map((channel) => channel.id)]);
  for (const [index, { id, type }] of overwrites.entries()) {
    const at = ["permissions", index, "id"];
    if (type === T.Role && !roleIds.has(id)) return invalidField(at, "ROLE_INVALID", "Not a role of this guild.");
    if (type === T.User && !targets.memberIds.has(id)) return invalidField(at, "USER_INVALID", "Not a member of this guild.");
    if (type === T.Channel && !channelIds.has(id)) return invalidField(at, "CHANNEL_INVALID", "Not a channel of this guild.");
  }
  return null;
}

function refuse(reason: string): Denial {
  return { error: "MISSING_PERMISSIONS", reason };
}

function isExempt(member: CommandMember): boolean {
  return member.isOwner || hasPermission(member.permissions, P.Administrator);
}

function labelOf(command: CommandSubject): string {
  return command.type === ApplicationCommandType.ChatInput ? `/${command.name}` : `the ${command.name} command`;
}

const LIST = new Intl.ListFormat("en", { type: "conjunction" });

/**
 * One place to look in one list: the overwrites of `type` naming any of `ids`. `owner` and
 * `whom` word the reason ("The permissions of /ban deny the Muted role.").
 */
type Step = {
  list: readonly CommandPermissionOverwrite[];
  owner: string;
  type: ApplicationCommandPermissionType;
  ids: readonly string[];
  whom: (ids: readonly string[]) => string;
};

type Verdict = { allowed: true } | { allowed: false; denial: Denial };

/** The first step with an overwrite that applies decides; null when none applies. */
function decide(steps: readonly Step[]): Verdict | null {
  for (const step of steps) {
    const hits = step.list.filter((overwrite) => overwrite.type === step.type && step.ids.includes(overwrite.id));
    if (hits.length === 0) continue;
    // Any allow wins over the denials beside it, as among a member's roles.
    if (hits.some((overwrite) => overwrite.permission)) return { allowed: true };
    return { allowed: false, denial: refuse(`The permissions of ${step.owner} deny ${step.whom(hits.map((overwrite) => overwrite.id))}.`) };
  }
  return null;
}

// order unverified: within a list, the member before their roles before @everyone, and a channel
// (a thread's own id) before its parent, as the change log's text reads; its flowchart is an image.
function memberSteps(list: readonly CommandPermissionOverwrite[], owner: string, guildId: string, member: CommandMember): Step[] {
  const names = new Map(member.roles.filter((role) => role.id !== guildId).map((role) => [role.id, role.name]));
  const roles = (ids: readonly string[]) => {
    const named = [...new Set(ids)].map((id) => names.get(id) ?? id);
    return `the ${LIST.format(named)} role${named.length > 1 ? "s" : ""}`;
  };
  return [
    { list, owner, type: T.User, ids: [member.userId], whom: () => "you" },
    { list, owner, type: T.Role, ids: [...names.keys()], whom: roles },
    { list, owner, type: T.Role, ids: [guildId], whom: () => "@everyone" },
  ];
}

function channelSteps(list: readonly CommandPermissionOverwrite[], owner: string, channel: CommandChannel): Step[] {
  const places = channel.threadParent ? [channel, channel.threadParent] : [channel];
  return places.map((place) => ({ list, owner, type: T.Channel, ids: [place.id], whom: () => `use in #${place.name}` }));
}

function allChannelsStep(list: readonly CommandPermissionOverwrite[], owner: string, guildId: string): Step {
  return { list, owner, type: T.Channel, ids: [allChannelsId(guildId)], whom: () => "use in all channels" };
}

const APP = "this app";

/**
 * The old logic's one list: the command's own if it holds any overwrite, else the app-level
 * entry's if it does; the other list and default_member_permissions are then ignored. Null when
 * neither holds any: default_member_permissions alone decides (change log 2022-11-17).
 */
function oldList(input: { command: CommandSubject; stored: StoredCommandPermissions }): { list: readonly CommandPermissionOverwrite[]; owner: string } | null {
  const { command, application } = input.stored;
  if (command.length > 0) return { list: command, owner: labelOf(input.command) };
  return application.length > 0 ? { list: application, owner: APP } : null;
}

/**
 * The channel check. v2: the command's overwrite for this channel (or its thread's parent), else
 * the app's, else the command's All Channels, else the app's, else allowed. Old logic: the one
 * list's channel, then its All Channels. A channel no overwrite names is allowed.
 */
function channelRulesDenial(input: CommandUseInput): Denial | null {
  const { guild, channel, command, stored } = input;
  const label = labelOf(command);
  let steps: Step[] = [];
  if (usesOldCommandPermissions(guild.features)) {
    const one = oldList(input);
    if (one) steps = [...channelSteps(one.list, one.owner, channel), allChannelsStep(one.list, one.owner, guild.id)];
  } else {
    steps = [
      ...channelSteps(stored.command, label, channel),
      ...channelSteps(stored.application, APP, channel),
      allChannelsStep(stored.command, label, guild.id),
      allChannelsStep(stored.application, APP, guild.id),
    ];
  }
  const verdict = decide(steps);
  return verdict?.allowed === false ? verdict.denial : null;
}

/**
 * The member check. v2: the command's own overwrites (the member, else their roles, else
 * @everyone) decide alone when one applies; else the app's may deny, and default_member_permissions
 * must still be met. Old logic: the one list decides, or default_member_permissions when there is none.
 */
function memberRulesDenial(input: Omit<CommandUseInput, "channel">): Denial | null {
  const { guild, member, command, stored } = input;
  if (usesOldCommandPermissions(guild.features)) {
    const one = oldList(input);
    if (!one) return defaultPermissionsDenial(member, command);
    const verdict = decide(memberSteps(one.list, one.owner, guild.id, member));
    return verdict?.allowed === false ? verdict.denial : null;
  }
  const own = decide(memberSteps(stored.command, labelOf(command), guild.id, member));
  if (own) return own.allowed ? null : own.denial;
  const app = decide(memberSteps(stored.application, APP, guild.id, member));
  if (app?.allowed === false) return app.denial;
  return defaultPermissionsDenial(member, command);
}

/** default_member_permissions: null lets everyone; "0" only administrators (exempt before this); else every bit it names. */
function defaultPermissionsDenial(member: CommandMember, command: CommandSubject): Denial | null {
  if (command.default_member_permissions === null) return null;
  const required = parsePermissions(command.default_member_permissions);
  // Every set holds the empty one, so "0" is refused outright.
  if (required === 0n) return refuse(`Only administrators may use ${labelOf(command)} by default.`);
  if (hasPermission(member.permissions, required)) return null;
  const labels: string[] = [];
  for (let bit = 1n; bit <= required; bit <<= 1n) if ((required & bit) !== 0n) labels.push(permissionLabel(bit));
  return refuse(`Only members with ${LIST.format(labels)} may use ${labelOf(command)} by default.`);
}

/**
 * Only a person's own authorization replaces command permissions. A bot token is answered 403
 * 20001 "Bots cannot use this endpoint", as on the platform [obs twilight#1740, discordeno#2235,
 * Discord.Net#2335]. A Bearer token lacking the scope was answered 401 40001 and was to become
 * 50026 [obs discord-api-docs#5239]; MISSING_ACCESS here, as the dispatcher answers any missing
 * scope. Dashboard users sign in themselves and are not scope-limited.
 */
function authorizationDenial(actor: Actor, applicationId: string): Denial | null {
  if (actor.kind === "bot")
    return { error: "BOTS_CANNOT_USE_ENDPOINT", reason: "A bot cannot change command permissions: a member authorizes the app to do it for them." };
  if (!hasScope(actor, "applications.commands.permissions.update"))
    return { error: "MISSING_ACCESS", reason: "This authorization does not let the app update command permissions." };
  // A member's token lets its own app alone change what they may change (unverified).
  if (actor.kind === "bearer" && actor.applicationId !== applicationId)
    return { error: "NOT_AUTHORIZED_FOR_APPLICATION", reason: "This authorization was given to another app." };
  return null;
}

/**
 * The editor must be able to use what they change, as things stand: a command as its member
 * check finds them (no channel is involved); the app-level entry, which no one command stands
 * for, by the app-level list alone.
 */
function editorUseDenial(input: CommandPermissionsEditInput): Denial | null {
  const { guild, editor, command, stored } = input;
  if (isExempt(editor)) return null;
  const denial =
    missingIn(editor.standing, editor.permissions, [P.UseApplicationCommands]) ??
    (command ? memberRulesDenial({ guild, member: editor, command, stored }) : appLevelDenial(input));
  return denial && refuse(`You can only change the permissions of what you may use yourself. ${denial.reason}`);
}

function appLevelDenial({ guild, editor, stored }: CommandPermissionsEditInput): Denial | null {
  const verdict = decide(memberSteps(stored.application, APP, guild.id, editor));
  return verdict?.allowed === false ? verdict.denial : null;
}

/**
 * Authority over what one overwrite names: roles below the editor's highest (the owner and
 * administrators manage all), channels they can view, any member; @everyone and All Channels
 * always. Unknown ids are the list's error.
 */
function targetDenial({ guild, editor, targets }: CommandPermissionsEditInput, overwrite: CommandPermissionOverwrite): Denial | null {
  if (overwrite.type === T.Role) {
    if (overwrite.id === guild.id || isExempt(editor)) return null;
    const role = targets.roles.find((candidate) => candidate.id === overwrite.id);
    if (!role || canManageRole({ isOwner: editor.isOwner, actorHighestPosition: editor.topRole ?? 0, targetRolePosition: role })) return null;
    return refuse(`The ${role.name} role is not below your highest role.`);
  }
  if (overwrite.type === T.Channel) {
    if (overwrite.id === allChannelsId(guild.id)) return null;
    const channel = targets.channels.find((candidate) => candidate.id === overwrite.id);
    if (!channel || channel.isViewable) return null;
    return { error: "MISSING_ACCESS", reason: `You cannot view #${channel.name}.` };
  }
  return null;
}
