import { AuditLogEvent } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import type { Tx } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { MEMBER_INCLUDE } from "./member.dto.ts";
import { enforce, kickDenial, pruneDenial } from "./member-rules.ts";
import { targetOf } from "./member.service.ts";
import type { TPruneInput } from "./member.schema.ts";
import { removeMembers } from "./membership.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The members a prune removes (spec 4.2): last seen (latest of joining and their last
 * activity) more than `days` ago, never the owner, holding no role outside `include_roles`
 * (without the list: no roles at all), and only members the actor could kick.
 */
async function pruneable(tx: Tx, access: GuildAccess, input: TPruneInput) {
  const cutoff = new Date(Date.now() - input.days * DAY_MS);
  const rows = await tx.member.findMany({
    where: {
      guildId: access.guild.id,
      userId: { not: access.guild.ownerId },
      joinedAt: { lt: cutoff },
      user: { OR: [{ lastActiveAt: null }, { lastActiveAt: { lt: cutoff } }] },
      roles: { every: { roleId: { in: input.include_roles } } },
    },
    include: MEMBER_INCLUDE,
  });
  return rows.filter((row) => kickDenial(access, targetOf(access, row)) === null);
}

/** GET /guilds/{guild.id}/prune: how many members a prune would remove. */
export async function previewPrune(ctx: ServiceContext, input: { guildId: string; prune: TPruneInput }): Promise<{ pruned: number }> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(pruneDenial(access));
  return { pruned: (await pruneable(ctx.db, access, input.prune)).length };
}

/**
 * POST /guilds/{guild.id}/prune: removes them in one change (Guild Member Remove each,
 * audit MEMBER_PRUNE with days and count); `pruned` is null when not asked to compute it.
 */
export async function prune(ctx: ServiceContext, input: { guildId: string; prune: TPruneInput; computeCount: boolean }): Promise<{ pruned: number | null }> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(pruneDenial(access));
  const count = await runChange(ctx, async (change) => {
    const members = await pruneable(change.tx, access, input.prune);
    await removeMembers(
      change,
      access.guild.id,
      members.map((m) => m.user),
    );
    await change.audit({
      guildId: access.guild.id,
      actionType: AuditLogEvent.MemberPrune,
      targetId: null,
      options: { delete_member_days: String(input.prune.days), members_removed: String(members.length) },
    });
    return members.length;
  });
  return { pruned: input.computeCount ? count : null };
}
