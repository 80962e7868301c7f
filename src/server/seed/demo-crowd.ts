import { GatewayDispatchEvents } from "discord-api-types/v10";
import { createUser } from "~/server/applications/application.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { runChange } from "~/server/events/change.ts";
import { banUser } from "~/server/members/ban.service.ts";
import { memberEventData, MEMBER_INCLUDE } from "~/server/members/member.dto.ts";
import { addGuildMember } from "~/server/members/member.service.ts";
import { modifyMember } from "~/server/members/modify-member.service.ts";
import { setScreening } from "~/server/members/screening.service.ts";
import { createRole } from "~/server/roles/role.service.ts";

// A few hundred members for the demo guild so the Members and Bans pages show real paging,
// search, role filters, timeouts, a pending member, bans and a prune to preview.

const ADJECTIVES = ["brave", "quiet", "lucky", "swift", "clever", "sunny", "misty", "bold", "gentle", "rapid", "silver", "cosmic", "tiny", "wild", "frosty"];
const NOUNS = ["otter", "falcon", "maple", "comet", "badger", "lynx", "harbor", "pixel", "cedar", "raven", "tiger", "willow", "nova", "ember", "koala"];
const CROWD_SIZE = 300;
const BANNED = 12;
const TIMED_OUT = 8;
/** Members last seen this long ago, so a prune has someone to find. */
const INACTIVE = 40;
const INACTIVE_DAYS = 45;
const BAN_REASONS = ["Spam links in every channel", "Raid account", "Harassing members", null];
const EXTRA_ROLES = [
  { name: "Artists", color: 0x9b59b6 },
  { name: "Veterans", color: 0x2ecc71 },
  { name: "Streamers", color: 0xe91e63 },
];

const crowdName = (i: number) => `${ADJECTIVES[i % ADJECTIVES.length]}_${NOUNS[Math.floor(i / ADJECTIVES.length) % NOUNS.length]}${i >= 225 ? i : ""}`;

/** Adds the crowd to the demo guild once (skipped when it is there); returns what it made. */
export async function seedCrowd(ctx: ServiceContext, guildId: string, membersRoleId: string): Promise<string[]> {
  const { db } = ctx;
  if (await db.user.findFirst({ where: { username: crowdName(0) }, select: { id: true } })) return [];

  const roleIds: string[] = [];
  for (const role of EXTRA_ROLES) roleIds.push((await createRole(ctx, { guildId, body: role })).id);

  const users = await runChange(ctx, async ({ tx }) => {
    const made = [];
    for (let i = 0; i < CROWD_SIZE + BANNED; i++) {
      const username = crowdName(i);
      made.push(await createUser(tx, { username, globalName: i % 3 === 0 ? username.replace("_", " ").replace(/\b\w/g, (c) => c.toUpperCase()) : null }));
    }
    return made;
  });
  const members = users.slice(0, CROWD_SIZE);
  for (const [i, user] of members.entries()) {
    const roles = [membersRoleId, ...(i % 5 === 0 ? [roleIds[0]!] : []), ...(i % 7 === 0 ? [roleIds[1]!] : []), ...(i % 11 === 0 ? [roleIds[2]!] : [])];
    // Every ninth member has no role at all: the ones a prune without included roles looks at.
    await addGuildMember(ctx, { guildId, userId: user.id, roleIds: i % 9 === 0 ? [] : roles });
  }
  for (const [i, user] of members.slice(0, TIMED_OUT).entries()) {
    const until = new Date(Date.now() + (i + 1) * 6 * 60 * 60 * 1000).toISOString();
    await modifyMember(ctx, { guildId, userId: user.id, body: { communication_disabled_until: until } });
  }
  for (const [i, user] of users.slice(CROWD_SIZE).entries()) {
    await banUser({ ...ctx, auditReason: BAN_REASONS[i % BAN_REASONS.length] ?? null }, { guildId, userId: user.id });
  }

  // Inactive members: joined and last seen long ago (an operator's backdating, announced).
  const longAgo = new Date(Date.now() - INACTIVE_DAYS * 24 * 60 * 60 * 1000);
  const inactive = members.slice(-INACTIVE).map((user) => user.id);
  await runChange(ctx, async ({ tx, emit }) => {
    await tx.user.updateMany({ where: { id: { in: inactive } }, data: { lastActiveAt: longAgo } });
    await tx.member.updateMany({ where: { guildId, userId: { in: inactive } }, data: { joinedAt: longAgo } });
    for (const row of await tx.member.findMany({ where: { guildId, userId: { in: inactive } }, include: MEMBER_INCLUDE })) {
      await emit(GatewayDispatchEvents.GuildMemberUpdate, memberEventData(guildId, row));
    }
  });

  // Screening on, then one newcomer who has not completed it yet.
  await setScreening(ctx, { guildId, enabled: true });
  const newcomer = await runChange(ctx, ({ tx }) => createUser(tx, { username: "newcomer", globalName: "New Comer" }));
  await addGuildMember(ctx, { guildId, userId: newcomer.id, roleIds: [] });
  return [`${CROWD_SIZE + 1} members`, `${EXTRA_ROLES.length} roles`, `${BANNED} bans`, `${TIMED_OUT} timeouts`, "membership screening"];
}
