"use client";

import { PermissionFlagsBits } from "discord-api-types/v10";
import { permissionLabel } from "~/components/roles/permission-catalog.ts";
import { hasPermission, parsePermissions } from "~/server/permissions/permissions.ts";
import { api } from "~/trpc/react.tsx";

export type GuildAccess = {
  isLoaded: boolean;
  isOwner: boolean;
  can(flag: bigint): boolean;
  /** Why the user can't use something that needs `flag`, or null when they can. */
  lacks(flag: bigint): string | null;
};

/** What the signed-in user may do in the guild: the server's answer, used to explain disabled controls. */
export function useGuildAccess(guildId: string): GuildAccess {
  const { data } = api.guild.permissions.useQuery({ guildId });
  const permissions = data ? parsePermissions(data.permissions) : 0n;
  const can = (flag: bigint) => hasPermission(permissions, flag);
  return {
    isLoaded: data !== undefined,
    isOwner: data?.is_owner ?? false,
    can,
    lacks: (flag) => (can(flag) ? null : flag === PermissionFlagsBits.Administrator ? "Needs Administrator" : `Needs ${titleCase(permissionLabel(flag))}`),
  };
}

function titleCase(label: string): string {
  return label.replace(/\b[a-z]/g, (c) => c.toUpperCase());
}
