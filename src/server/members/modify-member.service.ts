import { AuditLogEvent, GatewayDispatchEvents, PermissionFlagsBits } from "discord-api-types/v10";
import type { Role } from "~/generated/prisma/client.ts";
import type { AuditChange } from "~/server/audit/audit-entry-writer.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { decodeImageField, imageHash } from "~/server/images/image-data.ts";
import { memberImageFolder, replaceImage } from "~/server/images/image.service.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasAll } from "~/server/permissions/permissions.ts";
import { memberEventData, toMemberObject, type MemberCardRow, type MemberObject } from "./member.dto.ts";
import { changeMemberRoles, readMemberRoleIds, updateMemberRow, type MemberColumnsUpdate } from "./member-queries.ts";
import { deafenDenial, enforce, flagsDenial, moveDenial, muteDenial, nickDenial, roleChangeDenial, rolesDenial, timeoutDenial } from "./member-rules.ts";
import { EDITABLE_MEMBER_FLAGS, TIMEOUT_MAX_MS, type TCurrentMemberModifyBody, type TMemberModifyBody } from "./member.schema.ts";
import { loadTarget } from "./member.service.ts";
import { VOICE_CHANNEL_TYPES } from "./voice-rules.ts";
import { disconnectVoiceStates, emitVoiceState, moveVoiceState } from "./voice.service.ts";

const MEMBER_AUDIT_KEYS = ["nick", "mute", "deaf", "communication_disabled_until", "flags", "avatar_hash", "banner_hash"] as const;

function auditFields(member: MemberObject) {
  return {
    nick: member.nick,
    mute: member.mute,
    deaf: member.deaf,
    communication_disabled_until: member.communication_disabled_until,
    flags: member.flags,
    avatar_hash: member.avatar,
    banner_hash: member.banner,
  };
}

type RoleChanges = { added: Role[]; removed: Role[] };

/** The roles a new role list adds and removes, each checked against the actor's hierarchy. */
function roleChanges(access: GuildAccess, held: readonly string[], wanted: readonly string[]): RoleChanges {
  enforce(rolesDenial(access));
  const heldSet = new Set(held);
  const wantedSet = new Set(wanted);
  const find = (id: string) => {
    const role = access.roles.find((r) => r.id === id);
    if (!role) throw new ApiError("UNKNOWN_ROLE");
    return role;
  };
  const added = [...wantedSet].filter((id) => !heldSet.has(id)).map(find);
  const removed = [...heldSet].filter((id) => !wantedSet.has(id)).map(find);
  for (const role of [...added, ...removed]) enforce(roleChangeDenial(access, role));
  return { added, removed };
}

/**
 * Stores a member change: the row, its roles, the audit entries and Guild Member Update. The
 * user is as the request read it before the change; the roles are read again, as another
 * change may have moved them since.
 */
async function writeMember(change: Change, access: GuildAccess, before: MemberCardRow, data: MemberColumnsUpdate, roles: RoleChanges): Promise<MemberObject> {
  const guildId = access.guild.id;
  const member = await updateMemberRow(change.sql, guildId, before.userId, data);
  // As Prisma's update answers a member gone meanwhile (404).
  if (!member) throw new ApiError("NOT_FOUND");
  await changeMemberRoles(change.sql, guildId, before.userId, { add: roles.added.map((r) => r.id), remove: roles.removed.map((r) => r.id) });
  const row: MemberCardRow = { ...member, user: before.user, roles: await readMemberRoleIds(change.sql, guildId, before.userId) };
  const object = toMemberObject(row);
  const changes = diffChanges(auditFields(toMemberObject(before)), auditFields(object), MEMBER_AUDIT_KEYS);
  if (changes.length > 0) await change.audit({ guildId, actionType: AuditLogEvent.MemberUpdate, targetId: member.userId, changes });
  const roleAudit: AuditChange[] = [];
  const named = (list: Role[]) => list.map((r) => ({ id: r.id, name: r.name }));
  if (roles.added.length > 0) roleAudit.push({ key: "$add", new_value: named(roles.added) });
  if (roles.removed.length > 0) roleAudit.push({ key: "$remove", new_value: named(roles.removed) });
  if (roleAudit.length > 0) await change.audit({ guildId, actionType: AuditLogEvent.MemberRoleUpdate, targetId: member.userId, changes: roleAudit });
  // Its own objects: delivery must not share the answer's.
  await change.emit(GatewayDispatchEvents.GuildMemberUpdate, memberEventData(guildId, row));
  return object;
}

/**
 * PATCH /guilds/{guild.id}/members/{user.id} (spec 4.5): each field with its permission.
 * Voice fields need the member in voice (40032); a timeout is at most 28 days ahead and
 * never on an administrator or the owner.
 */
export async function modifyMember(ctx: ServiceContext, input: { guildId: string; userId: string; body: TMemberModifyBody }): Promise<MemberObject> {
  const { body } = input;
  const access = await loadGuildAccess(ctx, input.guildId);
  const { row, target } = await loadTarget(ctx.db, access, input.userId);
  const data: MemberColumnsUpdate = {};
  if (body.nick !== undefined) {
    enforce(nickDenial(access, target));
    data.nick = body.nick || null;
  }
  const roles =
    body.roles !== undefined
      ? roleChanges(
          access,
          row.roles.map((r) => r.roleId),
          body.roles ?? [],
        )
      : { added: [], removed: [] };
  if (body.communication_disabled_until !== undefined) {
    enforce(timeoutDenial(access, target));
    const until = body.communication_disabled_until === null ? null : new Date(body.communication_disabled_until);
    if (until && until.getTime() - Date.now() > TIMEOUT_MAX_MS) {
      throw invalidField(["communication_disabled_until"], "BASE_TYPE_BAD_TIMESTAMP", "A timeout can be at most 28 days ahead.");
    }
    data.communicationDisabledUntil = until;
  }
  if (body.flags !== undefined) {
    enforce(flagsDenial(access));
    // Only BYPASSES_VERIFICATION changes; flags the service sets are kept as they are.
    data.flags = (row.flags & ~EDITABLE_MEMBER_FLAGS) | ((body.flags ?? 0) & EDITABLE_MEMBER_FLAGS);
  }

  const touchesVoice = body.mute !== undefined || body.deaf !== undefined || body.channel_id !== undefined;
  const voice = touchesVoice ? await ctx.db.voiceState.findUnique({ where: { guildId_userId: { guildId: access.guild.id, userId: row.userId } } }) : null;
  if (body.mute !== undefined) enforce(muteDenial(access));
  if (body.deaf !== undefined) enforce(deafenDenial(access));
  if (body.channel_id !== undefined) enforce(moveDenial(access));
  if (touchesVoice && !voice) throw new ApiError("NOT_IN_VOICE");
  if (body.mute !== undefined) data.mute = body.mute ?? false;
  if (body.deaf !== undefined) data.deaf = body.deaf ?? false;
  if (body.channel_id) await requireMoveTarget(access, body.channel_id);

  return runChange(ctx, async (change) => {
    const updated = await writeMember(change, access, row, data, roles);
    if (voice && body.channel_id === null) {
      await disconnectVoiceStates(change, [voice]);
      await change.audit({ guildId: access.guild.id, actionType: AuditLogEvent.MemberDisconnect, targetId: null, options: { count: "1" } });
    } else if (voice && body.channel_id && body.channel_id !== voice.channelId) {
      await moveVoiceState(change, voice, body.channel_id);
      await change.audit({
        guildId: access.guild.id,
        actionType: AuditLogEvent.MemberMove,
        targetId: null,
        options: { channel_id: body.channel_id, count: "1" },
      });
    } else if (voice && (body.mute !== undefined || body.deaf !== undefined)) {
      await emitVoiceState(change, voice);
    }
    return updated;
  });
}

/** A move target: a voice or stage channel of the guild where the actor may connect and move members. */
async function requireMoveTarget(access: GuildAccess, channelId: string): Promise<void> {
  const channel = (await access.state.channels()).byId.get(channelId);
  if (!channel) throw new ApiError("UNKNOWN_CHANNEL");
  if (!VOICE_CHANNEL_TYPES.includes(channel.type)) throw invalidField(["channel_id"], "CHANNEL_TYPE_INVALID", "Members can only be moved to voice channels.");
  const perms = channelPermissions(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) });
  // MOVE_MEMBERS is a voice channel permission, so the target's overwrites can withhold it.
  if (!hasAll(perms, PermissionFlagsBits.Connect, PermissionFlagsBits.MoveMembers)) throw new ApiError("MISSING_PERMISSIONS");
}

/** PATCH /guilds/{guild.id}/members/@me: nick (CHANGE_NICKNAME), guild avatar and banner, bio. */
export async function modifyCurrentMember(ctx: ServiceContext, input: { guildId: string; body: TCurrentMemberModifyBody }): Promise<MemberObject> {
  const { body } = input;
  const access = await loadGuildAccess(ctx, input.guildId);
  const { row, target } = await loadTarget(ctx.db, access, ctx.actor.userId);
  if (body.nick !== undefined) enforce(nickDenial(access, target));
  const decode = (field: "avatar" | "banner") => {
    const value = body[field];
    return value === undefined || value === null ? value : decodeImageField(field, value);
  };
  const avatar = decode("avatar");
  const banner = decode("banner");
  return runChange(ctx, async (change) => {
    const data: MemberColumnsUpdate = {};
    if (body.nick !== undefined) data.nick = body.nick || null;
    if (body.bio !== undefined) data.bio = body.bio || null;
    if (avatar !== undefined) data.avatar = avatar && imageHash(avatar);
    if (banner !== undefined) data.banner = banner && imageHash(banner);
    const updated = await writeMember(change, access, row, data, { added: [], removed: [] });
    const folder = (kind: "avatars" | "banners") => memberImageFolder(access.guild.id, row.userId, kind);
    if (avatar !== undefined) await replaceImage(change, folder("avatars"), row.avatar, avatar);
    if (banner !== undefined) await replaceImage(change, folder("banners"), row.banner, banner);
    return updated;
  });
}

/** PUT / DELETE /guilds/{guild.id}/members/{user.id}/roles/{role.id}: MANAGE_ROLES and the hierarchy; 204 either way. */
export async function setMemberRole(ctx: ServiceContext, input: { guildId: string; userId: string; roleId: string; held: boolean }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { row } = await loadTarget(ctx.db, access, input.userId);
  const held = row.roles.map((r) => r.roleId);
  const wanted = input.held ? [...held, input.roleId] : held.filter((id) => id !== input.roleId);
  const role = access.roles.find((r) => r.id === input.roleId);
  if (!role) throw new ApiError("UNKNOWN_ROLE");
  // Checked even when nothing would change, so @everyone and roles out of reach answer the same both ways.
  enforce(roleChangeDenial(access, role));
  const roles = roleChanges(access, held, wanted);
  if (roles.added.length === 0 && roles.removed.length === 0) return;
  await runChange(ctx, (change) => writeMember(change, access, row, {}, roles));
}
