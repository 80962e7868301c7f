import { randomBytes } from "node:crypto";
import { GatewayCapabilityBits, GatewayCloseCodes, GatewayIntentBits, type GatewayReadyDispatchData } from "discord-api-types/v10";
import { hasPrivilegedIntent } from "~/server/applications/intents.ts";
import type { PrivilegedIntent } from "~/server/applications/application.schema.ts";
import { authenticate, tokenIdOf } from "~/server/auth/tokens.service.ts";
import type { Db } from "~/server/db/client.ts";
import { setSessionPresence } from "~/server/presences/presence.service.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { GatewayCloseError } from "./close-codes.ts";
import { KNOWN_INTENTS, type IdentifyCommand } from "./commands.ts";
import type { HandshakeDeps, Identified } from "./handshake-deps.ts";
import { identifyPlayer, isPlayerToken, playerOf } from "./player-session.ts";
import { claimSessionStart } from "./session-start-limit.ts";
import { sessionView, storeSession, type StoredSession } from "./session-store.ts";

const PRIVILEGED_BITS: readonly [number, PrivilegedIntent][] = [
  [GatewayIntentBits.GuildMembers, "GUILD_MEMBERS"],
  [GatewayIntentBits.GuildPresences, "PRESENCE"],
  [GatewayIntentBits.MessageContent, "MESSAGE_CONTENT"],
];

/** Shards past this count are refused (4010): the platform's largest bots stay far below it. */
const MAX_SHARDS = 65_536;

/**
 * The first privileged intent among `intents` the application does not hold now, or null: an
 * IDENTIFY or RESUME asking for it is closed with 4014, and so is a live session when the
 * application loses it.
 */
export async function disallowedIntent(db: Db, applicationId: string, intents: number): Promise<PrivilegedIntent | null> {
  for (const [bit, name] of PRIVILEGED_BITS) {
    if (intents & bit && !(await hasPrivilegedIntent(db, applicationId, name))) return name;
  }
  return null;
}

/** IDENTIFY and RESUME carry the bare token; some libraries prefix it with "Bot ". */
export async function botOf(db: Db, token: string) {
  const bare = token.replace(/^Bot\s+/i, "");
  const actor = await authenticate(db, `Bot ${bare}`);
  if (actor?.kind !== "bot" || !actor.applicationId) throw new GatewayCloseError(GatewayCloseCodes.AuthenticationFailed);
  return { applicationId: actor.applicationId, botUserId: actor.userId, tokenId: tokenIdOf(bare)! };
}

/**
 * Checks an IDENTIFY in the platform's order (token, shard, intents, guild count) and starts a
 * session: null when the session start limit refuses it now (the caller sends op 9).
 */
export async function identify(deps: HandshakeDeps, command: IdentifyCommand): Promise<Identified | null> {
  const { db } = deps;
  if (isPlayerToken(command.token)) return identifyPlayer(deps, await playerOf(db, command.token));
  const bot = await botOf(db, command.token);
  const [shardId, shardCount] = command.shard ?? [0, 1];
  if (shardCount < 1 || shardCount > MAX_SHARDS || shardId < 0 || shardId >= shardCount) {
    throw new GatewayCloseError(GatewayCloseCodes.InvalidShard, `shard [${shardId}, ${shardCount}]`);
  }
  if ((command.intents & ~KNOWN_INTENTS) !== 0) throw new GatewayCloseError(GatewayCloseCodes.InvalidIntents);
  const disallowed = await disallowedIntent(db, bot.applicationId, command.intents);
  if (disallowed) throw new GatewayCloseError(GatewayCloseCodes.DisallowedIntents, disallowed);
  const app = await db.application.findUnique({ where: { id: bot.applicationId }, include: { botUser: true } });
  if (!app) throw new GatewayCloseError(GatewayCloseCodes.AuthenticationFailed);
  const guildIds = await deps.router.guildsOf({ botUserId: bot.botUserId, shard: [shardId, shardCount] });
  if (guildIds.length > deps.maxGuildsPerShard) {
    throw new GatewayCloseError(GatewayCloseCodes.ShardingRequired, `${guildIds.length} guilds on one shard`);
  }
  const now = deps.now();
  if (await claimSessionStart(db, app, shardId, deps.sessionStart, now)) return null;
  const session: StoredSession = {
    id: randomBytes(16).toString("hex"),
    applicationId: app.id,
    kind: "bot",
    botUserId: app.botUserId,
    intents: command.intents,
    shardId,
    shardCount,
    largeThreshold: command.large_threshold,
    messageContent: (command.intents & GatewayIntentBits.MessageContent) !== 0,
    // The platform's testing opt-in: the capability bit, or the application's setting. Stored, so a RESUME keeps it.
    channelObfuscation: ((command.capabilities ?? 0) & GatewayCapabilityBits.ChannelObfuscation) !== 0 || app.channelObfuscation,
  };
  await storeSession(db, session, now);
  await setSessionPresence(db, { id: session.id, userId: session.botUserId }, command.presence, now);
  const ready: GatewayReadyDispatchData = {
    v: 10,
    user: toUserObject(app.botUser),
    guilds: guildIds.map((id) => ({ id, unavailable: true })),
    session_id: session.id,
    resume_gateway_url: deps.resumeGatewayUrl,
    shard: [shardId, shardCount],
    application: { id: app.id, flags: app.flags, flags_new: String(app.flags) },
  };
  return { view: sessionView(session, { guildIds }), ready, tokenId: bot.tokenId };
}
