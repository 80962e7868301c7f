import { GatewayDispatchEvents } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { toMemberObject, type MemberObject } from "~/server/members/member.dto.ts";
import { readMember } from "~/server/members/member-queries.ts";
import { joinGuild } from "~/server/members/membership.ts";
import { inviteRoleIds } from "./invite.dto.ts";
import { deleteInviteRow, readAcceptFacts, readLiveRoleIds, takeInviteUse, takeVanityUse } from "./invite-queries.ts";
import { readLiveInvite } from "./invite-reads.ts";

/** The same user's other acceptance joined first; this one's use is rolled back. */
class JoinedMeanwhile extends Error {}

export type AcceptResult = { guildId: string; member: MemberObject; joined: boolean };

/**
 * Accepts an invite for the acting user: the one path from an invite into a guild. Refused
 * when the invite is gone (10006), the user is not among the invite's target users, or by
 * the joining service (invites paused, the user banned). A use is counted by one conditional UPDATE, so concurrent acceptances never
 * pass max_uses; the use that reaches it deletes the invite (Invite Delete). Already a
 * member: nothing changes.
 */
export async function acceptInvite(ctx: ServiceContext, input: { code: string }): Promise<AcceptResult> {
  const userId = ctx.actor.userId;
  const invite = await readLiveInvite(ctx.db, input.code);
  const { guild } = invite;
  const facts = await readAcceptFacts(ctx.db, { guildId: guild.id, code: invite.code, userId });
  const existing = facts.isMember ? await readMember(ctx.db, guild.id, userId) : null;
  if (existing) return { guildId: guild.id, member: toMemberObject(existing), joined: false };
  if (!invite.isVanity && facts.hasTargetUsers && !facts.isTargetUser) throw new ApiError("NOT_INVITED");
  try {
    const member = await runChange(ctx, async (change) => {
      const { sql, emit } = change;
      if (invite.isVanity) {
        // As Prisma's update answers a guild gone meanwhile (404).
        if (!(await takeVanityUse(sql, guild.id))) throw new ApiError("NOT_FOUND");
      } else {
        // The use is taken only while the invite is live; a lost race finds nothing to update.
        const after = await takeInviteUse(sql, invite.code, invite.maxUses, new Date());
        if (!after) throw new ApiError("UNKNOWN_INVITE");
        if (after.maxUses > 0 && after.uses >= after.maxUses) {
          await deleteInviteRow(sql, invite.code);
          await emit(GatewayDispatchEvents.InviteDelete, { channel_id: invite.channelId, guild_id: guild.id, code: invite.code });
        }
      }
      const granted = inviteRoleIds(invite);
      const live = await readLiveRoleIds(sql, guild.id, granted);
      const row = await joinGuild(change, {
        guild,
        userId,
        roleIds: granted.filter((id) => live.has(id)),
        temporary: invite.temporary,
        throughInvite: true,
      });
      // A concurrent acceptance by the same user joined first: roll this use back.
      if (!row) throw new JoinedMeanwhile();
      return toMemberObject(row);
    });
    return { guildId: guild.id, member, joined: true };
  } catch (error) {
    if (!isUniqueViolation(error) && !(error instanceof JoinedMeanwhile)) throw error;
    const member = await readMember(ctx.db, guild.id, userId);
    if (!member) throw error;
    return { guildId: guild.id, member: toMemberObject(member), joined: false };
  }
}
