// The platform's permission algorithm ("Permissions" topic): base permissions from roles,
// then channel overwrites, then implicit denials, timeouts and membership screening. Pure:
// callers load the rows.
import { ChannelType, OverwriteType, PermissionFlagsBits } from "discord-api-types/v10";

const P = PermissionFlagsBits;

/** A channel permission overwrite: `type` 0 targets a role, 1 targets a member. */
export type PermissionOverwriteInput = {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
};

/** A role's place in the hierarchy: equal positions are ordered by id. */
export type RoleRank = {
  id: string;
  position: number;
};

/** A bare position (no tie-break possible) or a role whose id breaks ties. */
export type RolePosition = number | RoleRank;

/**
 * Every permission with the platform's name for it (VIEW_CHANNEL), one per bit: where a
 * deprecated alias shares a bit, the first name `PermissionFlagsBits` lists is kept.
 */
export const NAMED_PERMISSIONS: readonly { name: string; bit: bigint }[] = Object.entries(P)
  .filter(([, bit], index, all) => all.findIndex(([, other]) => other === bit) === index)
  .map(([name, bit]) => ({ name: name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase(), bit }));

/** Every permission bit the platform defines (OR of all `PermissionFlagsBits`). */
export const ALL_PERMISSIONS: bigint = Object.values(P).reduce((acc, bit) => acc | bit, 0n);

/**
 * What a new guild's @everyone role gets: the platform's current default set, limited to
 * the named flags (the platform's value also carries the retired bit 47).
 */
export const DEFAULT_EVERYONE_PERMISSIONS: bigint = [
  P.CreateInstantInvite,
  P.AddReactions,
  P.Stream,
  P.ViewChannel,
  P.SendMessages,
  P.EmbedLinks,
  P.AttachFiles,
  P.ReadMessageHistory,
  P.MentionEveryone,
  P.UseExternalEmojis,
  P.Connect,
  P.Speak,
  P.UseVAD,
  P.ChangeNickname,
  P.UseApplicationCommands,
  P.RequestToSpeak,
  P.CreatePublicThreads,
  P.CreatePrivateThreads,
  P.UseExternalStickers,
  P.SendMessagesInThreads,
  P.UseEmbeddedActivities,
  P.UseSoundboard,
  P.CreateGuildExpressions,
  P.CreateEvents,
  P.UseExternalSounds,
  P.SendVoiceMessages,
  P.SetVoiceChannelStatus,
  P.SendPolls,
  P.UseExternalApps,
].reduce((acc, bit) => acc | bit, 0n);

/** Permissions that are meaningless without the right to send messages (implicitly denied). */
const SEND_DEPENDENT_PERMISSIONS: bigint = P.MentionEveryone | P.SendTTSMessages | P.AttachFiles | P.EmbedLinks;

/**
 * Permissions implicitly denied in voice and stage channels without CONNECT: everything that
 * acts on a voice session, plus MANAGE_CHANNELS, which the platform names explicitly.
 */
export const CONNECT_DEPENDENT_PERMISSIONS: bigint =
  P.ManageChannels |
  P.PrioritySpeaker |
  P.Stream |
  P.Speak |
  P.MuteMembers |
  P.DeafenMembers |
  P.MoveMembers |
  P.UseVAD |
  P.RequestToSpeak |
  P.UseSoundboard |
  P.UseExternalSounds |
  P.SetVoiceChannelStatus;

/** What a timed-out member, or one who has not completed membership screening, keeps. */
const VIEWING_PERMISSIONS: bigint = P.ViewChannel | P.ReadMessageHistory;

// Highest bit the wire format can carry; anything wider is not a permission set.
const MAX_PERMISSIONS = (1n << 64n) - 1n;
const DECIMAL = /^[0-9]{1,20}$/;

/** True when `s` is a valid wire permission string (unsigned decimal, fits 64 bits). */
export function isPermissionString(s: string): boolean {
  return DECIMAL.test(s) && BigInt(s) <= MAX_PERMISSIONS;
}

/** Parses a wire permission string; throws RangeError on anything but an unsigned decimal. */
export function parsePermissions(s: string): bigint {
  // BigInt() alone would accept "0x10", " 1", "" and "-1", none of which the wire allows.
  if (!isPermissionString(s)) {
    throw new RangeError(`Invalid permission string: ${JSON.stringify(s)}`);
  }
  return BigInt(s);
}

/** Serializes a permission set to its wire form (decimal string). */
export function serializePermissions(b: bigint): string {
  if (b < 0n) throw new RangeError("Permission sets cannot be negative");
  return b.toString(10);
}

/** True when every bit of `flag` is set in `perms`. */
export function hasPermission(perms: bigint, flag: bigint): boolean {
  return (perms & flag) === flag;
}

/** True when every one of `flags` is held. */
export function hasAll(perms: bigint, ...flags: bigint[]): boolean {
  return flags.every((flag) => hasPermission(perms, flag));
}

/** The bits of `wanted` that `held` lacks (0n when nothing is missing). */
export function missingPermissions(held: bigint, wanted: bigint): bigint {
  return wanted & ~held;
}

/** True when a timeout ending at `until` is still running at `now`. */
export function isCommunicationDisabled(until: Date | null, now: Date): boolean {
  return until !== null && until.getTime() > now.getTime();
}

/** Guild-level permissions: owner → ALL; @everyone | roles; ADMINISTRATOR → ALL. */
export function computeBasePermissions(input: { ownerId: string; userId: string; everyonePermissions: bigint; rolePermissions: readonly bigint[] }): bigint {
  if (input.userId === input.ownerId) return ALL_PERMISSIONS;
  const perms = input.rolePermissions.reduce((acc, p) => acc | p, input.everyonePermissions);
  return hasPermission(perms, P.Administrator) ? ALL_PERMISSIONS : perms;
}

const THREAD_TYPES: ReadonlySet<number> = new Set([ChannelType.AnnouncementThread, ChannelType.PublicThread, ChannelType.PrivateThread]);
// Channels that carry messages; voice and stage included because they have text chat.
const MESSAGE_TYPES: ReadonlySet<number> = new Set([
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildForum,
  ChannelType.GuildMedia,
  ChannelType.GuildVoice,
  ChannelType.GuildStageVoice,
  ...THREAD_TYPES,
]);
const VOICE_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildVoice, ChannelType.GuildStageVoice]);

/** Applies the platform's implicit denials to overwrite-resolved channel permissions. */
function applyImplicitPermissions(perms: bigint, channelType: number): bigint {
  // Without VIEW_CHANNEL nothing else in the channel is usable.
  if (!hasPermission(perms, P.ViewChannel)) return 0n;
  let result = perms;
  if (MESSAGE_TYPES.has(channelType)) {
    // In threads SEND_MESSAGES is not inherited; SEND_MESSAGES_IN_THREADS is the gate.
    const sendFlag = THREAD_TYPES.has(channelType) ? P.SendMessagesInThreads : P.SendMessages;
    if (!hasPermission(result, sendFlag)) result &= ~SEND_DEPENDENT_PERMISSIONS;
  }
  if (VOICE_TYPES.has(channelType) && !hasPermission(result, P.Connect)) {
    result &= ~CONNECT_DEPENDENT_PERMISSIONS;
  }
  return result;
}

/** A channel as the algorithm needs it: its type (for implicit denials) and its overwrites. */
export type ChannelInput = { type: number; overwrites: readonly PermissionOverwriteInput[] };

/**
 * Whose permissions are asked: a member, or a role alone (`userId` null: @everyone and
 * `roleIds`, which no member overwrite and no timeout or screening concern).
 */
export type PermissionHolder = {
  userId: string | null;
  /** Guild-level permissions (computeBasePermissions): ALL for the owner and for ADMINISTRATOR. */
  base: bigint;
  /** The holder's roles, without @everyone (whose id is the guild's). */
  roleIds: readonly string[];
  /** A timeout is running now (isCommunicationDisabled). */
  isTimedOut: boolean;
  /** Membership screening is not completed, nor bypassed. */
  isPending: boolean;
};

/** A role's (or @everyone's, with no roles) permissions alone, as the widget and onboarding ask for them. */
export function roleHolder(base: bigint, roleIds: readonly string[] = []): PermissionHolder {
  return { userId: null, base, roleIds, isTimedOut: false, isPending: false };
}

/** What holds the holder back to viewing; owners and administrators are never held back. */
export function limitsOf(holder: PermissionHolder): { isTimedOut: boolean; isPending: boolean } {
  // Owners resolve to ALL (which includes ADMINISTRATOR), so one check exempts both.
  const isExempt = hasPermission(holder.base, P.Administrator);
  return { isTimedOut: !isExempt && holder.isTimedOut, isPending: !isExempt && holder.isPending };
}

/**
 * What the holder may do: in the guild, or in `channel` when given (overwrites in order,
 * then implicit denials). A running timeout or unfinished membership screening leaves only
 * viewing. Owners and administrators may do everything. Every decision takes its
 * permissions from here.
 */
export function computePermissions(input: { guildId: string; holder: PermissionHolder; channel?: ChannelInput }): bigint {
  const { holder, channel } = input;
  const perms = channel ? channelPermissionsOf(input.guildId, holder, channel) : holder.base;
  const limits = limitsOf(holder);
  return limits.isTimedOut || limits.isPending ? perms & VIEWING_PERMISSIONS : perms;
}

/**
 * Channel permissions from base permissions: ADMINISTRATOR → ALL, then @everyone, combined
 * role, and member overwrites (deny before allow each), then implicit denials.
 */
function channelPermissionsOf(everyoneRoleId: string, holder: PermissionHolder, channel: ChannelInput): bigint {
  const { base } = holder;
  const { overwrites } = channel;
  // ADMINISTRATOR bypasses overwrites and implicit denials alike.
  if (hasPermission(base, P.Administrator)) return ALL_PERMISSIONS;

  let perms = base;
  const everyone = overwrites.find((o) => o.type === OverwriteType.Role && o.id === everyoneRoleId);
  if (everyone) perms = (perms & ~everyone.deny) | everyone.allow;

  // Role overwrites are combined before applying, so role order never matters and any
  // role's allow beats another role's deny. The @everyone role is excluded in case callers
  // list it among the member's roles; it was applied above.
  const roleIds = new Set(holder.roleIds.filter((id) => id !== everyoneRoleId));
  let roleAllow = 0n;
  let roleDeny = 0n;
  for (const o of overwrites) {
    if (o.type === OverwriteType.Role && roleIds.has(o.id)) {
      roleAllow |= o.allow;
      roleDeny |= o.deny;
    }
  }
  perms = (perms & ~roleDeny) | roleAllow;

  const member = holder.userId === null ? undefined : overwrites.find((o) => o.type === OverwriteType.Member && o.id === holder.userId);
  if (member) perms = (perms & ~member.deny) | member.allow;

  return applyImplicitPermissions(perms, channel.type);
}

/** Orders roles low → high by (position, id); at equal positions the older (smaller) id ranks higher. */
export function compareRoles(a: RoleRank, b: RoleRank): number {
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  const idA = BigInt(a.id);
  const idB = BigInt(b.id);
  // Tied roles rank by id as the platform's clients order them: the smaller (older) id is higher.
  if (idA === idB) return 0;
  return idA < idB ? 1 : -1;
}

/** The member's top role by `compareRoles`, or null when they hold only @everyone. */
export function highestRole<R extends RoleRank>(roles: readonly R[]): R | null {
  let top: R | null = null;
  for (const role of roles) {
    if (top === null || compareRoles(role, top) > 0) top = role;
  }
  return top;
}

/** The member's highest role position; 0 (the @everyone position) when they have no roles. */
export function highestRolePosition(roles: readonly RoleRank[]): number {
  return highestRole(roles)?.position ?? 0;
}

// Strictly higher. With two roles the id breaks position ties; bare numbers cannot.
function isHigher(a: RolePosition, b: RolePosition): boolean {
  if (typeof a === "object" && typeof b === "object") return compareRoles(a, b) > 0;
  const posA = typeof a === "number" ? a : a.position;
  const posB = typeof b === "number" ? b : b.position;
  return posA > posB;
}

/** Whether an actor may edit, assign or remove a role: owner always, else a strictly higher top role. */
export function canManageRole(input: { isOwner: boolean; actorHighestPosition: RolePosition; targetRolePosition: RolePosition }): boolean {
  if (input.isOwner) return true;
  return isHigher(input.actorHighestPosition, input.targetRolePosition);
}

/** Whether an actor may kick/ban/edit another member: never the owner; else owner or strictly higher top role. */
export function canActOnMember(input: {
  isActorOwner: boolean;
  isTargetOwner: boolean;
  actorHighestPosition: RolePosition;
  targetHighestPosition: RolePosition;
}): boolean {
  if (input.isTargetOwner) return false;
  if (input.isActorOwner) return true;
  return isHigher(input.actorHighestPosition, input.targetHighestPosition);
}
