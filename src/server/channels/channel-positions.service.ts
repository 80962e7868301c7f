// Where a channel sits: the category a create or a move puts it in, its position there, and
// PATCH /guilds/{guild.id}/channels, which moves many at once.
import { ChannelType, GatewayDispatchEvents } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import type { Tx } from "~/server/db/client.ts";
import { invalidField, type ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import type { PermissionOverwriteInput } from "~/server/permissions/permissions.ts";
import { auditChannelUpdate } from "./channel-audit.ts";
import { checkOverwriteEdit, replaceOverwrites } from "./channel-overwrite-changes.ts";
import { sameOverwrites } from "./channel-overwrites.ts";
import { reorderChannelsDenial } from "./channel-rules.ts";
import { CHANNEL_INCLUDE, THREAD_TYPES, toChannelObject, type ChannelRow } from "./channel.dto.ts";
import { MAX_CATEGORY_CHANNELS, type TChannelPosition } from "./channel.schema.ts";

/**
 * PATCH /guilds/{guild.id}/channels (spec 4.2): needs MANAGE_CHANNELS; moves and reorders the
 * listed channels; lock_permissions copies the new category's overwrites, which is an
 * overwrite change and needs what PATCH /channels/{channel.id} needs for it. One Channel
 * Update per channel that changed.
 */
export async function modifyGuildChannelPositions(ctx: ServiceContext, input: { guildId: string; positions: readonly TChannelPosition[] }): Promise<void> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(reorderChannelsDenial(access));
  const { rows, byId } = await access.state.channels();
  type Placement = { row: ChannelRow; position: number; parentId: string | null; overwrites: PermissionOverwriteInput[] };
  const placements = new Map<string, Placement>();
  const placementOf = (row: ChannelRow): Placement =>
    placements.get(row.id) ?? { row, position: row.position, parentId: row.parentId, overwrites: toOverwriteInputs(row.overwrites) };
  // Children per category as placed so far, so each entry costs the same however many channels there are.
  const childCount = new Map<string, number>();
  for (const row of rows) if (row.parentId) childCount.set(row.parentId, (childCount.get(row.parentId) ?? 0) + 1);

  input.positions.forEach((entry, index) => {
    const row = byId.get(entry.id);
    if (!row) throw invalidField([index, "id"], "CHANNEL_INVALID", "Unknown channel in this guild.");
    const current = placementOf(row);
    const next = { ...current };
    if (entry.position !== undefined && entry.position !== null) next.position = entry.position;
    if (entry.parent_id !== undefined && row.type !== ChannelType.GuildCategory) {
      if (entry.parent_id !== null) {
        const parent = byId.get(entry.parent_id);
        if (parent?.type !== ChannelType.GuildCategory)
          throw invalidField([index, "parent_id"], "CHANNEL_PARENT_INVALID", "Parent must be a category of this guild.");
        const siblings = (childCount.get(parent.id) ?? 0) - (current.parentId === parent.id ? 1 : 0);
        if (siblings >= MAX_CATEGORY_CHANNELS) throw categoryFullError([index, "parent_id"]);
        const synced = toOverwriteInputs(parent.overwrites);
        if (entry.lock_permissions && !sameOverwrites(current.overwrites, synced)) {
          checkOverwriteEdit(access, row, parent, synced);
          next.overwrites = synced;
        }
      }
      if (current.parentId) childCount.set(current.parentId, (childCount.get(current.parentId) ?? 1) - 1);
      if (entry.parent_id) childCount.set(entry.parent_id, (childCount.get(entry.parent_id) ?? 0) + 1);
      next.parentId = entry.parent_id;
    }
    placements.set(row.id, next);
  });

  const changed = [...placements.values()].filter(
    (p) => p.position !== p.row.position || p.parentId !== p.row.parentId || !sameOverwrites(toOverwriteInputs(p.row.overwrites), p.overwrites),
  );
  if (changed.length === 0) return;

  await runChange(ctx, async (change) => {
    for (const placement of changed) {
      const { row } = placement;
      await change.tx.channel.update({ where: { id: row.id }, data: { position: placement.position, parentId: placement.parentId } });
      if (!sameOverwrites(toOverwriteInputs(row.overwrites), placement.overwrites)) await replaceOverwrites(change.tx, row.id, placement.overwrites);
      const after = toChannelObject(await change.tx.channel.findUniqueOrThrow({ where: { id: row.id }, include: CHANNEL_INCLUDE }));
      await auditChannelUpdate(change, access, toChannelObject(row), after);
      await change.emit(GatewayDispatchEvents.ChannelUpdate, after);
    }
  });
}

function categoryFullError(path: readonly PropertyKey[]): ApiError {
  return invalidField(path, "CHANNEL_PARENT_MAX_CHANNELS", `Maximum number of channels in category reached (${MAX_CATEGORY_CHANNELS})`);
}

/** The category a channel goes into: one of this guild's categories, not yet full. */
export async function loadParentCategory(db: Tx, guildId: string, parentId: string, movingId: string | null): Promise<ChannelRow> {
  const parent = await db.channel.findFirst({ where: { id: parentId, guildId }, include: CHANNEL_INCLUDE });
  if (parent?.type !== ChannelType.GuildCategory) throw invalidField(["parent_id"], "CHANNEL_PARENT_INVALID", "Parent must be a category of this guild.");
  const children = await db.channel.count({ where: { parentId, ...(movingId && { id: { not: movingId } }) } });
  if (children >= MAX_CATEGORY_CHANNELS) throw categoryFullError(["parent_id"]);
  return parent;
}

/** Below its siblings: the same category (or the top level), categories among categories. */
export async function nextPosition(db: Tx, guildId: string, parentId: string | null, isCategory: boolean): Promise<number> {
  const type = isCategory ? ChannelType.GuildCategory : { notIn: [ChannelType.GuildCategory, ...THREAD_TYPES] };
  const last = await db.channel.aggregate({ where: { guildId, parentId, type }, _max: { position: true } });
  return last._max.position === null ? 0 : last._max.position + 1;
}
