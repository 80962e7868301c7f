import type { Db } from "~/server/db/client.ts";
import { MEMBER_INCLUDE, toMemberObject, type MemberObject } from "./member.dto.ts";
import { readMemberPage } from "./member-queries.ts";

/** The platform's chunk size: members per GUILD_MEMBERS_CHUNK. */
const MEMBERS_PER_CHUNK = 1000;

/** The most members a name-prefix request answers, and the most user ids one request looks up. */
export const MEMBER_LOOKUP_MAX = 100;

/** Which members a request for guild members (gateway op 8) names. */
export type MemberSelection =
  /** Every member in user id order, or the first `limit` of them (0: all). */
  | { kind: "all"; limit: number }
  /** Members whose username or nickname starts with `prefix` (ignoring case), at most `limit`. */
  | { kind: "prefix"; prefix: string; limit: number }
  /** These users, those that are members. */
  | { kind: "ids"; userIds: readonly string[] };

/** One chunk of the answer; `chunkCount` is exact in the last chunk (members may join or leave while it is read). */
export type MemberChunk = { members: MemberObject[]; chunkIndex: number; chunkCount: number; notFound?: string[] };

/**
 * The members `selection` names in chunks of at most 1000, read from the database a chunk at
 * a time (keyset on user id), so a guild of any size costs two chunks of memory: the one
 * being sent and the next, read ahead to know whether the one being sent is the last.
 */
export async function* readMemberChunks(db: Db, guildId: string, selection: MemberSelection): AsyncGenerator<MemberChunk> {
  if (selection.kind === "ids") {
    const rows = await db.member.findMany({ where: { guildId, userId: { in: [...selection.userIds] } }, include: MEMBER_INCLUDE, orderBy: { userId: "asc" } });
    const found = new Set(rows.map((row) => row.userId));
    yield { members: rows.map(toMemberObject), chunkIndex: 0, chunkCount: 1, notFound: [...new Set(selection.userIds)].filter((id) => !found.has(id)) };
    return;
  }
  if (selection.kind === "prefix") {
    const rows = await readMemberPage(db, guildId, { after: "0", limit: selection.limit, prefix: selection.prefix });
    yield { members: rows.map(toMemberObject), chunkIndex: 0, chunkCount: 1 };
    return;
  }
  const wanted = selection.limit === 0 ? Infinity : selection.limit;
  const expected = Math.min(wanted, await db.member.count({ where: { guildId } }));
  const estimatedCount = Math.max(1, Math.ceil(expected / MEMBERS_PER_CHUNK));
  const readAfter = (after: string, read: number) => readMemberPage(db, guildId, { after, limit: Math.min(MEMBERS_PER_CHUNK, wanted - read) });
  let page = await readAfter("0", 0);
  let read = page.length;
  for (let chunkIndex = 0; ; chunkIndex++) {
    const hasMore = page.length === MEMBERS_PER_CHUNK && read < wanted;
    const next = hasMore ? readAfter(page.at(-1)!.userId, read) : null;
    const members = page.map(toMemberObject);
    const following = next ? await next : [];
    const isLast = following.length === 0;
    yield { members, chunkIndex, chunkCount: isLast ? chunkIndex + 1 : Math.max(estimatedCount, chunkIndex + 2) };
    if (isLast) return;
    page = following;
    read += page.length;
  }
}
