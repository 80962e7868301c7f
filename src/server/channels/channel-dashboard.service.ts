// What the channels page reads beyond the REST objects: each channel with what the signed-in
// user may do to it and why not, decided by the rules the channel services enforce.
import { ChannelType } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import type { Denial } from "~/server/permissions/denial.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import type { ChannelObject } from "./channel.dto.ts";
import { createChannelDenial, deleteChannelDenial, editChannelDenial, reorderChannelsDenial } from "./channel-rules.ts";
import { listGuildChannels } from "./channel.service.ts";

/** Null where the viewer may, else the reason; `createInside` is for categories (null on other channels). */
type ChannelDenials = { edit: string | null; delete: string | null; move: string | null; createInside: string | null };

export type ChannelListRow = { channel: ChannelObject; denials: ChannelDenials };

const reason = (denial: Denial | null) => denial?.reason ?? null;

/** The channels GET /guilds/{guild.id}/channels shows the viewer, each with what they may do to it; `create` is for a channel outside any category. */
export async function listChannelsForDashboard(ctx: ServiceContext, input: { guildId: string }): Promise<{ create: string | null; rows: ChannelListRow[] }> {
  const access = await loadGuildAccess(ctx.db, ctx.actor, input.guildId);
  const { byId } = await access.state.channels();
  const move = reason(reorderChannelsDenial(access));
  const rows = (await listGuildChannels(ctx, input)).map((channel) => {
    const row = byId.get(channel.id)!;
    const permissions = channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) });
    const denials: ChannelDenials = {
      edit: reason(editChannelDenial(access, permissions)),
      delete: reason(deleteChannelDenial(access, row, permissions)),
      move,
      createInside: row.type === ChannelType.GuildCategory ? reason(createChannelDenial(access, permissions)) : null,
    };
    return { channel, denials };
  });
  return { create: reason(createChannelDenial(access, null)), rows };
}
