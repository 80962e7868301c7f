import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { loadChannelAccess } from "~/server/channels/channel-read.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { insertLobbyInvite } from "~/server/invites/invite.service.ts";
import type { Db } from "~/server/db/client.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { accessIn, channelPermissions, loadGuildState, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { applicationOf, isLobbyMember, linkedChannelObject, presentLobby, readLobby, touchLobby } from "./lobby-access.ts";
import { LOBBY_INVITE_MAX_AGE_SECONDS, LobbyEvents, LobbyMemberFlags, type LobbyInviteObject, type LobbyObject } from "./lobby.schema.ts";

const channelTaken = () => invalidField(["channel_id"], "LOBBY_CHANNEL_LINKED", "This channel is already linked to another lobby.");

/**
 * A lobby's invites are made on behalf of the member who linked its channel, so that member
 * needs CREATE_INSTANT_INVITE there: when linking, and again for every invite.
 */
function requireLinkerMayInvite(permissions: bigint): void {
  if (!hasPermission(permissions, P.CreateInstantInvite)) {
    throw new ApiError("MISSING_PERMISSIONS", {
      message: "Missing Permissions: the member who links a lobby's channel needs CREATE_INSTANT_INVITE in it",
    });
  }
}

/** The linking member's permissions in the linked channel now; none once they left the guild or are unknown. */
async function linkerPermissions(db: Db, guildId: string, channelId: string, linkedById: string | null): Promise<bigint> {
  if (!linkedById) return 0n;
  const state = await loadGuildState(db, guildId, linkedById);
  const channel = (await state.channels()).byId.get(channelId);
  if (!channel || !(await state.member(linkedById))) return 0n;
  return channelPermissions(await accessIn(state, { userId: linkedById }), { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) });
}

/**
 * PATCH /lobbies/{lobby.id}/channel-linking (Bearer): links a guild text channel, or unlinks
 * when none is given. The caller must be a member with CanLinkLobby (50013) and able to view
 * (50001), send in and create invites to the channel (50013). A channel links one lobby at a
 * time; the lobby remembers who linked it.
 */
export async function setLobbyChannelLink(ctx: ServiceContext, input: { lobbyId: string; channelId: string | null }): Promise<LobbyObject> {
  const applicationId = applicationOf(ctx.actor);
  const record = await readLobby(ctx.db, applicationId, input.lobbyId);
  const member = record.members.find((each) => each.userId === ctx.actor.userId);
  if (!member) throw new ApiError("MISSING_ACCESS");
  if (!(member.flags & LobbyMemberFlags.CanLinkLobby)) throw new ApiError("MISSING_PERMISSIONS");
  if (input.channelId) {
    const { channel, permissions } = await loadChannelAccess(ctx, input.channelId);
    if (channel.type !== ChannelType.GuildText) throw new ApiError("WRONG_CHANNEL_TYPE");
    if (!hasPermission(permissions, P.SendMessages)) throw new ApiError("MISSING_PERMISSIONS");
    requireLinkerMayInvite(permissions);
  }
  try {
    return await runChange(ctx, async (change) => {
      const now = new Date();
      await touchLobby(change.sql, applicationId, input.lobbyId, { now });
      if (input.channelId) {
        const holder = await change.tx.lobby.findUnique({ where: { linkedChannelId: input.channelId } });
        if (holder && holder.id !== input.lobbyId) {
          // A lobby gone idle lets go of its channel; a live one keeps it.
          if (holder.expiresAt > now) throw channelTaken();
          await change.tx.lobby.update({ where: { id: holder.id }, data: { linkedChannelId: null, linkedById: null } });
        }
      }
      const linkedById = input.channelId ? ctx.actor.userId : null;
      const lobby = await change.tx.lobby.update({ where: { id: input.lobbyId }, data: { linkedChannelId: input.channelId, linkedById } });
      const object = await presentLobby(change.tx, lobby, ctx.db);
      await change.emit(LobbyEvents.Update, object);
      return object;
    });
  } catch (error) {
    // Another lobby linked the channel at the same moment.
    if (isUniqueViolation(error)) throw channelTaken();
    throw error;
  }
}

/**
 * POST /lobbies/{lobby.id}/members/@me/invites (Bearer) and .../members/{user.id}/invites
 * (Bot): a single-use invite to the linked channel, for an hour, for a member of the lobby.
 * 10003 when the lobby has no linked channel; 50013 unless the member who linked it may
 * still create invites there.
 */
export async function createLobbyInvite(ctx: ServiceContext, input: { lobbyId: string; userId: string }): Promise<LobbyInviteObject> {
  const applicationId = applicationOf(ctx.actor);
  const record = await readLobby(ctx.db, applicationId, input.lobbyId);
  const lobby = record.row;
  if (!isLobbyMember(record, input.userId)) throw new ApiError(input.userId === ctx.actor.userId ? "MISSING_ACCESS" : "UNKNOWN_MEMBER");
  // The channel as its guild has it now: a deleted channel unlinks the lobby.
  const channel = await linkedChannelObject(ctx.db, lobby.linkedChannelId);
  if (!channel?.guild_id) throw new ApiError("UNKNOWN_CHANNEL");
  const [guildId, channelId] = [channel.guild_id, channel.id];
  requireLinkerMayInvite(await linkerPermissions(ctx.db, guildId, channelId, lobby.linkedById));
  const code = await runChange(ctx, async (change) => {
    await touchLobby(change.sql, applicationId, lobby.id, { known: lobby });
    return insertLobbyInvite(change, { guildId, channelId, inviterId: input.userId, maxAge: LOBBY_INVITE_MAX_AGE_SECONDS });
  });
  return { code };
}
