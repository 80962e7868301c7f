import { ChannelType, GatewayDispatchEvents } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import type { PermissionOverwriteInput } from "~/server/permissions/permissions.ts";
import { auditChannelUpdate } from "./channel-audit.ts";
import { checkOverwriteEdit, replaceOverwrites, resolveOverwrites } from "./channel-overwrite-changes.ts";
import { loadChannelAccess, type ChannelAccess } from "./channel-read.service.ts";
import { singleOverwriteDenial } from "./channel-rules.ts";
import { CHANNEL_INCLUDE, toChannelObject } from "./channel.dto.ts";
import { MAX_PERMISSION_OVERWRITES, type TOverwriteEditBody } from "./channel.schema.ts";
import { syncCategoryChildren } from "./modify-channel.service.ts";

/**
 * One channel's overwrites changed to `after`, checked by the channel edit's overwrite rule
 * with one overwrite's requirement (MANAGE_ROLES, not MANAGE_CHANNELS): audited as overwrite
 * entries, Channel Update, and a category's synced channels follow as in a channel edit.
 */
async function writeOverwrites(ctx: ServiceContext, { access, channel }: ChannelAccess, after: PermissionOverwriteInput[]): Promise<void> {
  const parent = channel.parentId ? ((await access.state.channels()).byId.get(channel.parentId) ?? null) : null;
  checkOverwriteEdit(access, channel, parent, after, singleOverwriteDenial);
  await runChange(ctx, async (change) => {
    await replaceOverwrites(change.tx, channel.id, after);
    const row = await change.tx.channel.findUniqueOrThrow({ where: { id: channel.id }, include: CHANNEL_INCLUDE });
    const object = toChannelObject(row);
    await auditChannelUpdate(change, access, toChannelObject(channel), object);
    await change.emit(GatewayDispatchEvents.ChannelUpdate, object);
    if (channel.type === ChannelType.GuildCategory) await syncCategoryChildren(change, channel, after);
  });
}

/** PUT /channels/{channel.id}/permissions/{overwrite.id}: sets one role's or member's overwrite (10011 / 10007 for an unknown target). */
export async function editChannelOverwrite(ctx: ServiceContext, input: { channelId: string; overwriteId: string; body: TOverwriteEditBody }): Promise<void> {
  const loaded = await loadChannelAccess(ctx, input.channelId);
  // The body is the overwrite itself: a field error names its own fields.
  const [overwrite] = await resolveOverwrites(ctx.db, loaded.access, [{ id: input.overwriteId, ...input.body }], () => []);
  const before = toOverwriteInputs(loaded.channel.overwrites);
  const after = [...before.filter((o) => o.id !== input.overwriteId), overwrite!];
  if (after.length > MAX_PERMISSION_OVERWRITES) throw new ApiError("MAX_PERMISSION_OVERWRITES");
  await writeOverwrites(ctx, loaded, after);
}

/** DELETE /channels/{channel.id}/permissions/{overwrite.id}: removes one overwrite; one that is not there changes nothing. */
export async function deleteChannelOverwrite(ctx: ServiceContext, input: { channelId: string; overwriteId: string }): Promise<void> {
  const loaded = await loadChannelAccess(ctx, input.channelId);
  const before = toOverwriteInputs(loaded.channel.overwrites);
  const after = before.filter((o) => o.id !== input.overwriteId);
  if (after.length === before.length) {
    // Nothing to remove: the caller is still held to the rule, as the platform answers 204 only to those who may.
    enforce(singleOverwriteDenial(loaded.access, loaded.permissions));
    return;
  }
  await writeOverwrites(ctx, loaded, after);
}
