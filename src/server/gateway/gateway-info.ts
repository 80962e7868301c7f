import type { APIGatewayBotInfo } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { gatewayLimitsFromEnv, gatewayUrl } from "./gateway-limits.ts";
import { readSessionStartLimit } from "./session-start-limit.ts";

/** Guilds per shard the platform recommends for. */
const GUILDS_PER_SHARD = 1000;

/** GET /gateway/bot for the calling bot: where to connect, the shards it should run, and its session start budget. */
export async function gatewayBotInfo(ctx: ServiceContext, publicBaseUrl: string, now: Date): Promise<APIGatewayBotInfo> {
  const { db, actor } = ctx;
  const app = actor.applicationId ? await db.application.findUnique({ where: { id: actor.applicationId }, select: { id: true, maxConcurrency: true } }) : null;
  if (!app) throw new ApiError("UNKNOWN_APPLICATION");
  const guilds = await db.member.count({ where: { userId: actor.userId } });
  return {
    url: gatewayUrl(publicBaseUrl),
    shards: Math.max(1, Math.ceil(guilds / GUILDS_PER_SHARD)),
    session_start_limit: await readSessionStartLimit(db, app, gatewayLimitsFromEnv().sessionStart, now),
  };
}
