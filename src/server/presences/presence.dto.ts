import { PresenceUpdateStatus, type GatewayPresenceUpdateDispatchData } from "discord-api-types/v10";
import type { ShownPresence } from "~/server/gateway/presence-privacy.ts";

/** PRESENCE_UPDATE's payload for one guild: the user by id (the platform sends a partial user), as the privacy rule shows them. */
export function toPresenceUpdate(userId: string, guildId: string, shown: ShownPresence): GatewayPresenceUpdateDispatchData {
  return {
    user: { id: userId },
    guild_id: guildId,
    status: shown.status,
    activities: shown.activities,
    // Sessions are bot connections, which the platform reports as desktop clients.
    client_status: shown.status === PresenceUpdateStatus.Offline ? {} : { desktop: shown.status },
  } satisfies GatewayPresenceUpdateDispatchData;
}
