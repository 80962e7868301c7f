// What the channels page reads beyond the REST objects: each channel with what the signed-in
// user may do to it and why not, decided by the rules the channel services enforce.
import { ChannelType } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import type { ChannelObject } from "./channel.dto.ts";
import { createChannelDenial, deleteChannelDenial, editChannelDenial, reorderChannelsDenial } from "./channel-rules.ts";
import { listGuildChannels } from "./channel-read.service.ts";

/** Null where the viewer may, else the reason; `createInside` is for categories (null on other channels). */
type ChannelDenials = { edit: string | null; delete: string | null; move: string | null; createInside: string | null };

export type ChannelListRow = { channel: ChannelObject; denials: ChannelDenials };

/** The channels GET /guilds/{guild.id}/channels shows the viewer, each with what they may do to it; `create` is for a channel outside any category. */
export async function listChannelsForDashboard(ctx: ServiceContext, input: { guildId: string }): Promise<{ create: string | null; rows: ChannelListRow[] }> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { byId } = await access.state.channels();
  const move = reasonOf(reorderChannelsDenial(access));
  const rows = (await listGuildChannels(ctx, input)).map((channel) => {
    const row = byId.get(channel.id)!;
    const permissions = channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) });
    const denials: ChannelDenials = {
      edit: reasonOf(editChannelDenial(access, permissions)),
      delete: reasonOf(deleteChannelDenial(access, row, permissions)),
      move,
      createInside: row.type === ChannelType.GuildCategory ? reasonOf(createChannelDenial(access, permissions)) : null,
    };
    return { channel, denials };
  });
  return { create: reasonOf(createChannelDenial(access, null)), rows };
}
