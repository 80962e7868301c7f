import { AuditLogEvent, ChannelType, GatewayDispatchEvents } from "discord-api-types/v10";
import { diffChanges } from "~/server/audit/audit.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import type { PermissionOverwriteInput } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { CHANNEL_RECORD_KEYS } from "./channel-audit.ts";
import { hasAnnouncements, typeChoicesError, typedColumns } from "./channel-columns.ts";
import { savedChannelName } from "./channel-name.ts";
import { resolveOverwrites } from "./channel-overwrite-changes.ts";
import { changedOverwriteBits } from "./channel-overwrites.ts";
import { loadParentCategory, nextPosition } from "./channel-positions.service.ts";
import { permissionsIn } from "./channel-read.service.ts";
import { createChannelDenial, newChannelOverwriteLimits, overwriteChangeDenial } from "./channel-rules.ts";
import { CHANNEL_INCLUDE, NOT_A_THREAD, toChannelObject, type ChannelObject } from "./channel.dto.ts";
import { fieldAppliesTo, GUILD_CHANNEL_TYPES, MAX_GUILD_CHANNELS, type TChannelCreateBody } from "./channel.schema.ts";

/** POST /guilds/{guild.id}/channels (spec 4.2, 4.4): needs MANAGE_CHANNELS; fires Channel Create. */
export async function createGuildChannel(ctx: ServiceContext, input: { guildId: string; body: TChannelCreateBody }): Promise<ChannelObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { guild } = access;
  const { body } = input;
  const type = body.type ?? ChannelType.GuildText;
  const name = savedChannelName(type, body.name);
  const parentId = fieldAppliesTo("parent_id", type) ? (body.parent_id ?? null) : null;
  const parent = parentId ? await loadParentCategory(ctx.db, guild.id, parentId, null) : null;
  // Inside a category the caller's permissions there decide, overwrites included.
  const parentPermissions = parent ? permissionsIn(access, parent) : null;
  enforce(createChannelDenial(access, parentPermissions));
  if (type === ChannelType.GuildAnnouncement && !hasAnnouncements(guild)) {
    throw typeChoicesError(GUILD_CHANNEL_TYPES.filter((t) => t !== ChannelType.GuildAnnouncement));
  }
  const count = await ctx.db.channel.count({ where: { guildId: guild.id, type: NOT_A_THREAD } });
  if (count >= MAX_GUILD_CHANNELS) throw new ApiError("MAX_CHANNELS");

  const columns = typedColumns({ type, body, guild, current: null });
  let overwrites: PermissionOverwriteInput[];
  if (body.permission_overwrites) {
    overwrites = await resolveOverwrites(ctx.db, access, body.permission_overwrites);
    // The platform checks new overwrites against the caller's guild permissions (and the category's).
    enforce(overwriteChangeDenial(access, changedOverwriteBits([], overwrites), newChannelOverwriteLimits(access, parentPermissions)));
  } else {
    // Without overwrites of its own a new channel starts synced with its category.
    overwrites = parent ? toOverwriteInputs(parent.overwrites) : [];
  }
  const position = body.position ?? (await nextPosition(ctx.db, guild.id, parentId, type === ChannelType.GuildCategory));

  return runChange(ctx, async ({ tx, emit, audit }) => {
    const row = await tx.channel.create({
      data: {
        id: newId(),
        guildId: guild.id,
        type,
        name,
        position,
        parentId,
        ...columns,
        overwrites: { create: overwrites.map((o) => ({ targetId: o.id, type: o.type, allow: o.allow, deny: o.deny })) },
      },
      include: CHANNEL_INCLUDE,
    });
    const channel = toChannelObject(row);
    await audit({ guildId: guild.id, actionType: AuditLogEvent.ChannelCreate, targetId: channel.id, changes: diffChanges({}, channel, CHANNEL_RECORD_KEYS) });
    await emit(GatewayDispatchEvents.ChannelCreate, channel);
    return channel;
  });
}
