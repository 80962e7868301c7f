import type { APIRole } from "discord-api-types/v10";
import type { Role } from "~/generated/prisma/client.ts";
import { serializePermissions } from "~/server/permissions/permissions.ts";

/**
 * The role object; the icon fields are always sent (null when unset), where APIRole has them
 * optional, and `permissions_new` repeats the whole bit set beside `permissions` (spec 9).
 */
export type RoleObject = APIRole & Required<Pick<APIRole, "icon" | "unicode_emoji">> & { permissions_new: string };

export function toRoleObject(role: Role): RoleObject {
  const permissions = serializePermissions(role.permissions);
  return {
    id: role.id,
    name: role.name,
    color: role.color,
    colors: { primary_color: role.color, secondary_color: role.secondaryColor, tertiary_color: role.tertiaryColor },
    hoist: role.hoist,
    icon: role.icon,
    unicode_emoji: role.unicodeEmoji,
    position: role.position,
    permissions,
    permissions_new: permissions,
    managed: role.managed,
    mentionable: role.mentionable,
    flags: role.flags,
    // A bot's managed role names its bot, as the platform's role tags do.
    ...(role.botId && { tags: { bot_id: role.botId } }),
  } satisfies RoleObject;
}

/** Roles in the platform's order: by position, ties by id. */
export function sortRoles<R extends { position: number; id: string }>(roles: readonly R[]): R[] {
  return [...roles].sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
}
