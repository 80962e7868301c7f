// What others see of a user's presence: the one rule applied wherever a presence is sent
// (PRESENCE_UPDATE, GUILD_CREATE's presences, member chunks' presences). Pure.
import { ActivityType, PresenceUpdateStatus, type GatewayActivity, type PresenceUpdateReceiveStatus } from "discord-api-types/v10";

/** Who may see a user's custom status, from the most open to the most private. */
export const PROFILE_PRIVACY = ["everyone", "friends_and_small_servers", "friends_only"] as const;
export type ProfilePrivacy = (typeof PROFILE_PRIVACY)[number];

/** The largest guild that still counts as a small server for `friends_and_small_servers` (spec 6: "more than 200 members"). */
export const SMALL_SERVER_MAX_MEMBERS = 200;

/** A presence as its user set it (op 3 or IDENTIFY): invisible included. */
export type SetPresence = { status: PresenceUpdateStatus; activities: readonly GatewayActivity[] };

/** A presence as others receive it. */
export type ShownPresence = { status: PresenceUpdateReceiveStatus; activities: GatewayActivity[] };

/** Where the presence is shown: the user's privacy setting and the size of the guild it is sent for. */
export type PresenceAudience = { privacy: ProfilePrivacy; guildMemberCount: number };

/** Whether a user's custom status shows in a guild of this size (spec 6); guild members are never friends of a bot session. */
function showsCustomStatus({ privacy, guildMemberCount }: PresenceAudience): boolean {
  if (privacy === "everyone") return true;
  if (privacy === "friends_and_small_servers") return guildMemberCount <= SMALL_SERVER_MAX_MEMBERS;
  return false;
}

/**
 * The presence others see in a guild: no presence (no live session), `offline` and `invisible`
 * all show as offline with no activities; the custom-status activity (type 4) is left out where
 * the user's privacy hides it (spec 6).
 */
export function visiblePresence(presence: SetPresence | null, audience: PresenceAudience): ShownPresence {
  const status = presence?.status;
  if (!status || status === PresenceUpdateStatus.Invisible || status === PresenceUpdateStatus.Offline) {
    return { status: PresenceUpdateStatus.Offline, activities: [] };
  }
  const showsCustom = showsCustomStatus(audience);
  return { status, activities: presence.activities.filter((activity) => showsCustom || activity.type !== ActivityType.Custom) };
}

/** Whether others see the user as online at all (the online counts and the widget's members). */
export function isShownOnline(presence: SetPresence | null): boolean {
  return visiblePresence(presence, { privacy: "everyone", guildMemberCount: 0 }).status !== PresenceUpdateStatus.Offline;
}

/** The setting's effect, in words, for the dashboard and the CLI. */
export function describeProfilePrivacy(privacy: ProfilePrivacy): string {
  switch (privacy) {
    case "everyone":
      return "Your custom status is shown to bots in every server you are in.";
    case "friends_and_small_servers":
      return `Your custom status is shown to bots in servers of up to ${SMALL_SERVER_MAX_MEMBERS} members, and hidden in larger ones.`;
    case "friends_only":
      return "Your custom status is hidden from bots in every server; only friends see it.";
  }
}
