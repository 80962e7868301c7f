import { ChannelType } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createUser, issueBearerToken } from "~/server/applications/application.service.ts";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { setRateLimitsLifted } from "~/server/applications/rate-limits.ts";
import { createGuildChannel } from "~/server/channels/create-channel.service.ts";
import type { Db } from "~/server/db/client.ts";
import { createGuild, USER_MAX_GUILDS } from "~/server/guilds/guild.service.ts";
import { createInvite } from "~/server/invites/invite.service.ts";
import { LOBBY_IDLE_TIMEOUT_MAX_SECONDS } from "~/server/lobbies/lobby.schema.ts";
import { createLobby } from "~/server/lobbies/lobby.service.ts";
import { addGuildMember } from "~/server/members/member.service.ts";
import { createRole } from "~/server/roles/role.service.ts";
import { createBootstrapCredentials } from "~/server/seed/bootstrap.ts";
import { createWebhook } from "~/server/webhooks/webhook.service.ts";

// The data the REST bench measures on, made through the services as a community would.

const BENCH_MEMBERS = 250;
/** Players in the bench's lobby, as a match of a team game holds. */
const LOBBY_PLAYERS = 8;

/** A guild with the roles and channels a small community has, owned by the bench's bot. */
export async function seedBenchGuild(db: Db) {
  const credentials = await createBootstrapCredentials(db);
  const ctx = { db, actor: { kind: "bot" as const, userId: credentials.bot_user_id, applicationId: credentials.application_id, scopes: new Set<string>() } };
  for (let i = 0; i < 8; i++) await createRole(ctx, { guildId: credentials.guild_id, body: { name: `Role ${i}`, color: 0x3498db + i } });
  for (let i = 0; i < 8; i++) await createGuildChannel(ctx, { guildId: credentials.guild_id, body: { name: `channel-${i}`, type: ChannelType.GuildText } });
  const roles = (await db.role.findMany({ where: { guildId: credentials.guild_id, position: { gt: 0 } }, select: { id: true } })).map((role) => role.id);
  const memberIds: string[] = [];
  for (let i = 0; i < BENCH_MEMBERS; i++) {
    const user = await createUser(db, { username: `member_${i}`, globalName: `Member ${i}` });
    await addGuildMember({ db, actor: null }, { guildId: credentials.guild_id, userId: user.id, roleIds: roles.filter((_, r) => (i + r) % 3 === 0) });
    memberIds.push(user.id);
  }
  // Listing members needs the privileged intent, as for any bot.
  await setApprovedIntents({ db, actor: null }, credentials.application_id, ["GUILD_MEMBERS"], true);
  const channel = (await db.channel.findFirst({ where: { guildId: credentials.guild_id, type: ChannelType.GuildText }, select: { id: true } }))!;
  const invite = await createInvite(ctx, { channelId: channel.id, body: { max_age: 0 } });
  const webhook = await createWebhook(ctx, { channelId: channel.id, body: { name: "Bench deploys" } });
  // A match lobby of the bench's application, with players on Bearer tokens of the game.
  const players = memberIds.slice(0, LOBBY_PLAYERS);
  const lobby = await createLobby(ctx, {
    members: players.map((id, i) => ({ id, metadata: { team: i % 2 ? "red" : "blue" } })),
    metadata: { map: "harbor", mode: "ranked" },
    idle_timeout_seconds: LOBBY_IDLE_TIMEOUT_MAX_SECONDS,
  });
  const playerToken = await issueBearerToken(
    { db, actor: null },
    { userId: players[0]!, applicationId: credentials.application_id, scopes: ["identify", "sdk.social_layer"] },
  );
  // A game in production: the development limits of spec 8 are lifted.
  await setRateLimitsLifted({ db, actor: null }, credentials.application_id, true);
  return {
    ...credentials,
    memberId: memberIds[Math.floor(BENCH_MEMBERS / 2)]!,
    channelId: channel.id,
    inviteCode: invite.code,
    webhookId: webhook.id,
    webhookPath: `/api/v10/webhooks/${webhook.id}/${webhook.token}`,
    lobbyPath: `/api/v10/lobbies/${lobby.id}`,
    playerToken,
  };
}

/** `count` more guilds, each owned by a user and joined by the bot, for the cache-full run. */
export async function seedManyGuilds(db: Db, botUserId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const owner = await createUser(db, { username: `owner_${ids.length}` });
    const ctx = { db, actor: dashboardActor(owner.id) };
    for (let i = 0; i < USER_MAX_GUILDS && ids.length < count; i++) {
      const guild = await createGuild(ctx, { name: `Many ${ids.length}` });
      await addGuildMember({ db, actor: null }, { guildId: guild.id, userId: botUserId });
      ids.push(guild.id);
    }
  }
  return ids;
}
