// Where each permission of a member (or of a role alone) in one channel comes from, step by
// step as the platform's algorithm applies them; the verdict itself is the algorithm's.
import { ChannelType, OverwriteType, PermissionFlagsBits as P } from "discord-api-types/v10";
import type { PermissionSource } from "~/server/members/member-dashboard.service.ts";
import {
  ALL_PERMISSIONS,
  computeBasePermissions,
  computePermissions,
  CONNECT_DEPENDENT_PERMISSIONS,
  hasPermission,
  NAMED_PERMISSIONS,
  type ChannelInput,
  type PermissionHolder,
} from "~/server/permissions/permissions.ts";

/** One permission in the channel: whether it is held, and the steps that decided it. */
export type ChannelPermissionSource = PermissionSource & { allowed: boolean };

/** Whose permissions: a member (`userId`), or a role alone (`userId` null: @everyone plus `roleIds`). */
export type PermissionSubject = {
  userId: string | null;
  isOwner: boolean;
  roleIds: readonly string[];
  /** What holds a member back to viewing: a timeout or unfinished membership screening. */
  limit: "timeout" | "screening" | null;
};

type NamedRole = { id: string; name: string; permissions: bigint };

const VOICE_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildVoice, ChannelType.GuildStageVoice]);

/** Every named permission of `subject` in `channel`, with its sources; `roles` are the guild's, @everyone included. */
export function channelPermissionSources(input: {
  guild: { id: string; ownerId: string };
  roles: readonly NamedRole[];
  subject: PermissionSubject;
  channel: ChannelInput;
}): ChannelPermissionSource[] {
  const { guild, subject, channel } = input;
  const everyone = input.roles.find((role) => role.id === guild.id);
  const held = new Set(subject.roleIds);
  const memberRoles = input.roles.filter((role) => role.id !== guild.id && held.has(role.id));
  // A role alone has no user: no member overwrite applies and it is never the owner.
  const userId = subject.userId ?? "";
  const base = subject.isOwner
    ? ALL_PERMISSIONS
    : computeBasePermissions({
        ownerId: guild.ownerId,
        userId,
        everyonePermissions: everyone?.permissions ?? 0n,
        rolePermissions: memberRoles.map((role) => role.permissions),
      });
  const holder: PermissionHolder = { userId: subject.userId, base, roleIds: subject.roleIds, isTimedOut: false, isPending: false };
  // What the steps give, and what is left once a timeout or screening holds the member back.
  const inChannel = computePermissions({ guildId: guild.id, holder, channel });
  const final = computePermissions({
    guildId: guild.id,
    holder: { ...holder, isTimedOut: subject.limit === "timeout", isPending: subject.limit === "screening" },
    channel,
  });

  const granting = everyone ? [everyone, ...memberRoles] : memberRoles;
  const roleName = (role: NamedRole) => (role.id === guild.id ? "@everyone" : role.name);
  const nameOf = new Map(granting.map((role) => [role.id, roleName(role)]));
  const everyoneOverwrite = channel.overwrites.find((o) => o.type === OverwriteType.Role && o.id === guild.id);
  const roleOverwrites = channel.overwrites.filter((o) => o.type === OverwriteType.Role && o.id !== guild.id && held.has(o.id));
  const memberOverwrite = subject.userId === null ? undefined : channel.overwrites.find((o) => o.type === OverwriteType.Member && o.id === subject.userId);
  const admins = granting.filter((role) => hasPermission(role.permissions, P.Administrator)).map(roleName);

  return NAMED_PERMISSIONS.map(({ name, bit }) => {
    const allowed = hasPermission(final, bit);
    const entry = (sources: string[]) => ({ permission: name, bit: bit.toString(), allowed, sources });
    if (subject.isOwner) return entry(["Guild owner"]);
    if (admins.length > 0) return entry(admins.map((role) => `Administrator (${role})`));

    const sources: string[] = [];
    const fromRoles = granting.filter((role) => hasPermission(role.permissions, bit)).map(roleName);
    let isHeld = fromRoles.length > 0;
    sources.push(isHeld ? `Granted by ${fromRoles.join(", ")}` : "No role grants it");
    // Each later step overrides the earlier ones, as in the algorithm: @everyone, roles, member.
    const step = (overwrite: { allow: bigint; deny: bigint } | undefined, who: string) => {
      if (!overwrite) return;
      if (hasPermission(overwrite.deny, bit)) sources.push(`Denied to ${who} here`);
      if (hasPermission(overwrite.allow, bit)) sources.push(`Allowed to ${who} here`);
    };
    step(everyoneOverwrite, "@everyone");
    if (everyoneOverwrite) isHeld = applyOverwrite(isHeld, everyoneOverwrite, bit);
    const denying = roleOverwrites.filter((o) => hasPermission(o.deny, bit)).map((o) => nameOf.get(o.id) ?? o.id);
    const allowing = roleOverwrites.filter((o) => hasPermission(o.allow, bit)).map((o) => nameOf.get(o.id) ?? o.id);
    if (denying.length) sources.push(`Denied to ${denying.join(", ")} here`);
    if (allowing.length) sources.push(`Allowed to ${allowing.join(", ")} here`);
    isHeld = allowing.length > 0 || (isHeld && denying.length === 0);
    step(memberOverwrite, "this member");
    if (memberOverwrite) isHeld = applyOverwrite(isHeld, memberOverwrite, bit);

    if (isHeld && !hasPermission(inChannel, bit)) sources.push(implicitReason(inChannel, bit, channel.type));
    else if (hasPermission(inChannel, bit) && !allowed) sources.push(subject.limit === "timeout" ? "Timed out" : "Membership screening not completed");
    return entry(sources);
  });
}

/** One overwrite's say on one bit: its deny first, then its allow. */
function applyOverwrite(isHeld: boolean, overwrite: { allow: bigint; deny: bigint }, bit: bigint): boolean {
  if (hasPermission(overwrite.allow, bit)) return true;
  return hasPermission(overwrite.deny, bit) ? false : isHeld;
}

/** Why the platform takes away a permission the steps gave: no viewing, no connecting, no sending. */
function implicitReason(inChannel: bigint, bit: bigint, type: number): string {
  if (!hasPermission(inChannel, P.ViewChannel)) return "Removed: cannot view the channel";
  if (VOICE_TYPES.has(type) && hasPermission(CONNECT_DEPENDENT_PERMISSIONS, bit) && !hasPermission(inChannel, P.Connect)) return "Removed: cannot connect";
  return "Removed: cannot send messages";
}
