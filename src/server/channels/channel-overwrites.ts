// Comparing a channel's overwrites before and after a change: what it touches, and whether a
// channel is synced with its category (the same overwrites).
import type { PermissionOverwriteInput } from "~/server/permissions/permissions.ts";
import { toOverwriteObjects } from "./channel.dto.ts";

/** Every bit an overwrite change sets or clears, so resending unchanged overwrites needs nothing. */
export function changedOverwriteBits(before: readonly PermissionOverwriteInput[], after: readonly PermissionOverwriteInput[]): bigint {
  const old = new Map(before.map((o) => [o.id, o]));
  const kept = new Set(after.map((o) => o.id));
  let changed = 0n;
  for (const o of after) changed |= (o.allow ^ (old.get(o.id)?.allow ?? 0n)) | (o.deny ^ (old.get(o.id)?.deny ?? 0n));
  for (const o of before) if (!kept.has(o.id)) changed |= o.allow | o.deny;
  return changed;
}

/** The same overwrites, whatever their order: how the platform tells a channel synced with its category. */
export function sameOverwrites(a: readonly PermissionOverwriteInput[], b: readonly PermissionOverwriteInput[]): boolean {
  const wire = (list: readonly PermissionOverwriteInput[]) => JSON.stringify(toOverwriteObjects(list.map((o) => ({ targetId: o.id, ...o }))));
  return wire(a) === wire(b);
}
