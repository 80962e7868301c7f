// Handing a guild over: who may become its owner (PATCH /guilds/{guild.id} with owner_id) and
// the members the dashboard offers for it, each with the reason it would be refused.
import type { ServiceContext } from "~/server/context.ts";
import type { Tx } from "~/server/db/client.ts";
import { readMemberPage } from "~/server/members/member-queries.ts";
import { enforce, reasonOf } from "~/server/permissions/denial.ts";
import { loadGuildAccess, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { newOwnerDenial, transferOwnershipDenial } from "./guild-section-rules.ts";

/** The owner_id PATCH /guilds/{guild.id} may set: only the owner transfers, to a member (a bot may be one). */
export async function checkNewOwner(db: Tx, access: GuildAccess, userId: string): Promise<string> {
  enforce(transferOwnershipDenial(access));
  if (userId === access.guild.ownerId) return userId;
  const member = await db.member.findUnique({ where: { guildId_userId: { guildId: access.guild.id, userId } }, select: { userId: true } });
  enforce(newOwnerDenial(member !== null));
  return userId;
}

/** A member the owner may pick as the next owner. */
type OwnerCandidate = { id: string; name: string; username: string; bot: boolean };

const CANDIDATES_SHOWN = 25;

/**
 * The transfer section: the current owner's name, why the viewer may not transfer (null for
 * the owner) and, for the owner, members whose names hold the words of `query`.
 */
export async function listOwnerCandidates(
  ctx: ServiceContext,
  input: { guildId: string; query: string },
): Promise<{ owner: string | null; denial: string | null; candidates: OwnerCandidate[] }> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const ownerId = access.guild.ownerId;
  const owner = await ctx.db.user.findUnique({ where: { id: ownerId }, select: { username: true, globalName: true } });
  const denial = reasonOf(transferOwnershipDenial(access));
  if (denial) return { owner: owner && (owner.globalName ?? owner.username), denial, candidates: [] };
  const query = input.query.trim();
  const rows = await readMemberPage(ctx.db, access.guild.id, { after: "0", limit: CANDIDATES_SHOWN + 1, ...(query && { search: query }) });
  const candidates = rows
    .filter((row) => row.userId !== ownerId)
    .slice(0, CANDIDATES_SHOWN)
    .map((row) => ({
      id: row.userId,
      name: row.nick ?? row.user.globalName ?? row.user.username,
      username: row.user.username,
      bot: row.user.bot,
    }));
  return { owner: owner && (owner.globalName ?? owner.username), denial: null, candidates };
}
