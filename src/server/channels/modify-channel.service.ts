import { ChannelType, GatewayDispatchEvents } from "discord-api-types/v10";
import type { Guild, Prisma } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { loadDmTarget } from "~/server/dms/dm.service.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import type { PermissionOverwriteInput } from "~/server/permissions/permissions.ts";
import { auditChannelUpdate } from "./channel-audit.ts";
import { hasAnnouncements, typeChoicesError, typedColumns } from "./channel-columns.ts";
import { savedChannelName } from "./channel-name.ts";
import { checkOverwriteEdit, replaceOverwrites, resolveOverwrites } from "./channel-overwrite-changes.ts";
import { sameOverwrites } from "./channel-overwrites.ts";
import { loadParentCategory } from "./channel-positions.service.ts";
import { loadChannelAccess } from "./channel-read.service.ts";
import { editChannelDenial } from "./channel-rules.ts";
import { CHANNEL_INCLUDE, toChannelObject, type ChannelObject, type ChannelRow } from "./channel.dto.ts";
import { fieldAppliesTo, type TChannelModifyBody } from "./channel.schema.ts";

/**
 * PATCH /channels/{channel.id}: needs MANAGE_CHANNELS in the channel, and MANAGE_ROLES to
 * change overwrites; type changes only between text and announcement. Fires Channel Update.
 */
export async function modifyChannel(ctx: ServiceContext, input: { channelId: string; body: TChannelModifyBody }): Promise<ChannelObject> {
  // A DM has nothing to edit (its recipients see it; 50003 as on the platform).
  if (await loadDmTarget(ctx, input.channelId)) throw new ApiError("CANNOT_EXECUTE_ON_DM");
  const { access, channel, permissions } = await loadChannelAccess(ctx, input.channelId);
  const { guild } = access;
  const { body } = input;
  enforce(editChannelDenial(access, permissions));

  const type = resolveTypeChange(guild, channel.type, body.type);
  const data: Prisma.ChannelUncheckedUpdateInput = typedColumns({ type, body, guild, current: channel });
  if (type !== channel.type) data.type = type;
  if (body.name !== undefined) data.name = savedChannelName(type, body.name);
  if (body.position !== undefined && body.position !== null) data.position = body.position;

  const isMoving = body.parent_id !== undefined && fieldAppliesTo("parent_id", type) && body.parent_id !== channel.parentId;
  const newParent = isMoving && body.parent_id ? await loadParentCategory(ctx.db, guild.id, body.parent_id, channel.id) : null;
  if (isMoving) data.parentId = body.parent_id ?? null;

  let overwrites: PermissionOverwriteInput[] | null = null;
  if (body.permission_overwrites !== undefined) {
    overwrites = await resolveOverwrites(ctx.db, access, body.permission_overwrites ?? []);
    const parentId = isMoving ? (body.parent_id ?? null) : channel.parentId;
    const parent = newParent ?? (parentId ? await ctx.db.channel.findUnique({ where: { id: parentId }, include: CHANNEL_INCLUDE }) : null);
    checkOverwriteEdit(access, channel, parent, overwrites);
  }

  return runChange(ctx, async (change) => {
    const { tx, emit } = change;
    await tx.channel.update({ where: { id: channel.id }, data });
    if (overwrites) await replaceOverwrites(tx, channel.id, overwrites);
    const after = toChannelObject(await tx.channel.findUniqueOrThrow({ where: { id: channel.id }, include: CHANNEL_INCLUDE }));
    await auditChannelUpdate(change, access, toChannelObject(channel), after);
    await emit(GatewayDispatchEvents.ChannelUpdate, after);
    if (overwrites && channel.type === ChannelType.GuildCategory) await syncCategoryChildren(change, channel, overwrites);
    return after;
  });
}

/** The only type change the platform supports is text ↔ announcement, with NEWS. */
function resolveTypeChange(guild: Guild, current: number, requested: number | null | undefined): number {
  if (requested === undefined || requested === null || requested === current) return current;
  const convertible: number[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement];
  if (convertible.includes(current) && convertible.includes(requested) && hasAnnouncements(guild)) return requested;
  throw typeChoicesError(convertible.includes(current) && hasAnnouncements(guild) ? convertible : [current]);
}

/** Children synced with a category (same overwrites) follow its new overwrites. */
export async function syncCategoryChildren(change: Change, category: ChannelRow, overwrites: readonly PermissionOverwriteInput[]): Promise<void> {
  const before = toOverwriteInputs(category.overwrites);
  const children = await change.tx.channel.findMany({ where: { parentId: category.id }, include: CHANNEL_INCLUDE });
  for (const child of children) {
    if (!sameOverwrites(toOverwriteInputs(child.overwrites), before)) continue;
    await replaceOverwrites(change.tx, child.id, overwrites);
    const row = await change.tx.channel.findUniqueOrThrow({ where: { id: child.id }, include: CHANNEL_INCLUDE });
    await change.emit(GatewayDispatchEvents.ChannelUpdate, toChannelObject(row));
  }
}
