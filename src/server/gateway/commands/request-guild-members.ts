import {
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type GatewayGuildMembersChunkDispatchData,
  type GatewayRateLimitedDispatchData,
} from "discord-api-types/v10";
import { readMemberChunks } from "~/server/members/member-chunk.service.ts";
import { shownGuildPresences } from "~/server/presences/presence.service.ts";
import { runtimeOf } from "~/server/runtime/runtime-of.ts";
import type { CommandContext } from "../gateway-command.ts";
import { hasIntent } from "../intents.ts";
import { isWholeGuild, memberRequestDenial, nonceOf, selectionOf, type RequestGuildMembersCommand } from "./member-request.ts";

/**
 * Answers with GUILD_MEMBERS_CHUNK dispatches on this connection only. As on the platform, a
 * request the session may not make (another guild, or no GUILD_MEMBERS for every member) gets
 * no answer at all, and `presences` without GUILD_PRESENCES counts as false.
 */
export async function requestGuildMembers(context: CommandContext, command: RequestGuildMembersCommand): Promise<void> {
  const { db, view } = context;
  const guildId = command.guild_id;
  const selection = selectionOf(command);
  if (!view.guildIds.has(guildId) || memberRequestDenial(view.intents, selection) !== null) return;
  const nonce = nonceOf(command.nonce);
  const withPresences = command.presences === true && hasIntent(view.intents, GatewayIntentBits.GuildPresences);
  // Whether a listing answers every member, and the custom-status privacy rule, depend on the guild's size.
  const memberCount = selection.kind === "all" || withPresences ? await db.member.count({ where: { guildId } }) : 0;
  if (isWholeGuild(selection, memberCount)) {
    const limit = await runtimeOf(db).limiter.consume("requestGuildMembers", guildId, view.applicationId);
    if (limit.limited) {
      const meta = nonce === undefined ? { guild_id: guildId } : { guild_id: guildId, nonce };
      return context.send(GatewayDispatchEvents.RateLimited, {
        opcode: GatewayOpcodes.RequestGuildMembers,
        retry_after: limit.resetAfterMs / 1000,
        meta,
      } satisfies GatewayRateLimitedDispatchData<GatewayOpcodes.RequestGuildMembers>);
    }
  }
  const guild = withPresences ? { id: guildId, memberCount } : null;
  for await (const chunk of readMemberChunks(db, guildId, selection)) {
    if (context.isClosed()) return;
    const presences = guild
      ? (
          await shownGuildPresences(
            db,
            guild,
            chunk.members.map((member) => member.user.id),
          )
        ).map(({ user, status, activities, client_status }) => ({ user, status, activities, client_status }))
      : undefined;
    context.send(GatewayDispatchEvents.GuildMembersChunk, {
      guild_id: guildId,
      members: chunk.members,
      chunk_index: chunk.chunkIndex,
      chunk_count: chunk.chunkCount,
      ...(chunk.notFound && { not_found: chunk.notFound }),
      ...(presences && { presences }),
      ...(nonce !== undefined && { nonce }),
    } satisfies GatewayGuildMembersChunkDispatchData);
  }
}
