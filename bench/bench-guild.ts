import { ChannelType } from "discord-api-types/v10";
import { createApplication, createUser } from "~/server/applications/application.service.ts";
import { createGuildChannel } from "~/server/channels/create-channel.service.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { joinGuild } from "~/server/members/membership.ts";

// Members joined per change: one transaction per member would take minutes on SQLite.
const SEED_BATCH = 100;

/**
 * One guild owned by a bot (whose token makes the measured REST changes) with one text channel,
 * and `count` members, each made by `newMember` and joined through the joining service.
 */
export async function seedWatchedGuild<T>(
  db: Db,
  names: { guild: string; channel: string },
  count: number,
  newMember: (tx: Tx, index: number, ownerId: string) => Promise<{ userId: string; value: T }>,
) {
  const owner = await createUser(db, { username: "bench_owner" });
  const { application, botToken: ownerToken } = await createApplication(db, { name: "Bench Owner", ownerId: owner.id });
  const ownerCtx = { db, actor: { kind: "bot" as const, userId: application.botUserId, applicationId: application.id, scopes: new Set<string>() } };
  const guild = await createGuild(ownerCtx, { name: names.guild });
  const channel = await createGuildChannel(ownerCtx, { guildId: guild.id, body: { name: names.channel, type: ChannelType.GuildText } });
  const guildRow = await db.guild.findUniqueOrThrow({ where: { id: guild.id }, select: { id: true, features: true, invitesDisabledUntil: true } });
  const members: T[] = [];
  while (members.length < count) {
    const batch = Math.min(SEED_BATCH, count - members.length);
    await runChange({ db, actor: null }, async (change) => {
      for (let i = 0; i < batch; i++) {
        const { userId, value } = await newMember(change.tx, members.length, owner.id);
        await joinGuild(change, { guild: guildRow, userId });
        members.push(value);
      }
    });
  }
  return { ownerId: owner.id, ownerToken, guildId: guild.id, channelId: channel.id, members };
}

/** The p-th percentile (nearest rank); NaN for no values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
