import type { ServiceContext } from "~/server/context.ts";
import { addIntegration } from "~/server/integrations/integration.service.ts";

export const DEMO_STREAM_NAME = "Guildhall Live";

/**
 * The demo guild's Twitch integration, once, added as the CLI adds one; the demo bot's own
 * integration came with its joining.
 */
export async function seedIntegrations(ctx: ServiceContext, guildId: string, streamerId: string): Promise<string[]> {
  if (await ctx.db.integration.findFirst({ where: { guildId, name: DEMO_STREAM_NAME }, select: { id: true } })) return [];
  await addIntegration(ctx, {
    guild_id: guildId,
    type: "twitch",
    name: DEMO_STREAM_NAME,
    account_id: "guildhall_live",
    account_name: "guildhall_live",
    user_id: streamerId,
  });
  return [`integration ${DEMO_STREAM_NAME}`];
}
