import type { TRoleParams } from "~/server/roles/role.schema.ts";
import type { RouterOutputs } from "~/trpc/react.tsx";

export type RoleObject = RouterOutputs["role"]["list"][number];
/** A role with what the viewer may do to it, as the roles page lists it. */
export type RoleRow = RouterOutputs["role"]["rows"]["rows"][number];

/** The role form: spec 4.6 parameters, the colour as "#rrggbb" ("" for the default). */
export type RoleValues = { name: string; color: string; hoist: boolean; mentionable: boolean; permissions: string };

export const ROLE_SWATCHES = ["#1abc9c", "#2ecc71", "#3498db", "#9b59b6", "#e91e63", "#f1c40f", "#e67e22", "#e74c3c", "#95a5a6", "#607d8b"];

export function colorToHex(color: number): string {
  return color === 0 ? "" : `#${color.toString(16).padStart(6, "0")}`;
}

function hexToColor(hex: string): number {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  return match?.[1] ? Number.parseInt(match[1], 16) : 0;
}

export function toRoleValues(role: RoleObject | null, defaultPermissions: string): RoleValues {
  return {
    name: role?.name ?? "",
    color: role ? colorToHex(role.color) : "",
    hoist: role?.hoist ?? false,
    mentionable: role?.mentionable ?? false,
    permissions: role?.permissions ?? defaultPermissions,
  };
}

export function toRoleParams(values: RoleValues): TRoleParams {
  return {
    name: values.name,
    colors: { primary_color: hexToColor(values.color), secondary_color: null, tertiary_color: null },
    hoist: values.hoist,
    mentionable: values.mentionable,
    permissions: values.permissions,
  };
}

/** Only the fields that changed: a colour left alone keeps a gradient the form can't show. */
export function changedRoleParams(values: RoleValues, initial: RoleValues): TRoleParams {
  const params = toRoleParams(values);
  const changed: TRoleParams = {};
  if (values.name !== initial.name) changed.name = params.name;
  if (hexToColor(values.color) !== hexToColor(initial.color)) changed.colors = params.colors;
  if (values.hoist !== initial.hoist) changed.hoist = params.hoist;
  if (values.mentionable !== initial.mentionable) changed.mentionable = params.mentionable;
  if (values.permissions !== initial.permissions) changed.permissions = params.permissions;
  return changed;
}
