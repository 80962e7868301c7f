import { GuildFeature } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";

export type VoiceRegion = { id: string; name: string; optimal: boolean; deprecated: boolean; custom: boolean };

/** The one table of voice regions; VIP regions serve only VIP_REGIONS guilds. */
const REGIONS: readonly (VoiceRegion & { vip: boolean })[] = [
  { id: "us-west", name: "US West", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "us-east", name: "US East", optimal: true, deprecated: false, custom: false, vip: false },
  { id: "us-central", name: "US Central", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "us-south", name: "US South", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "brazil", name: "Brazil", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "rotterdam", name: "Rotterdam", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "singapore", name: "Singapore", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "japan", name: "Japan", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "hongkong", name: "Hong Kong", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "sydney", name: "Sydney", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "southafrica", name: "South Africa", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "india", name: "India", optimal: false, deprecated: false, custom: false, vip: false },
  { id: "europe", name: "Europe", optimal: false, deprecated: true, custom: false, vip: false },
  { id: "vip-us-east", name: "VIP US East", optimal: false, deprecated: false, custom: true, vip: true },
  { id: "vip-us-west", name: "VIP US West", optimal: false, deprecated: false, custom: true, vip: true },
  { id: "vip-amsterdam", name: "VIP Amsterdam", optimal: false, deprecated: false, custom: true, vip: true },
];

const toRegion = ({ id, name, optimal, deprecated, custom }: VoiceRegion): VoiceRegion => ({ id, name, optimal, deprecated, custom });

/** GET /voice/regions: every region open to all. */
export function listVoiceRegions(): VoiceRegion[] {
  return REGIONS.filter((region) => !region.vip).map(toRegion);
}

/** GET /guilds/{guild.id}/regions: members; VIP regions too for VIP_REGIONS guilds. */
export async function listGuildVoiceRegions(ctx: ServiceContext, input: { guildId: string }): Promise<VoiceRegion[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const isVip = parseFeatures(access.guild.features).includes(GuildFeature.VIPRegions);
  return REGIONS.filter((region) => isVip || !region.vip).map(toRegion);
}
