import { ChannelType, type APIDMChannel } from "discord-api-types/v10";
import type { UserObject } from "~/server/users/user.dto.ts";

/** A DM channel object as its reader sees it: `recipients` names the other user only, as on the platform. */
export type DmChannelObject = Omit<APIDMChannel, "name" | "recipients" | "last_message_id" | "last_pin_timestamp" | "flags"> & {
  type: ChannelType.DM;
  last_message_id: string | null;
  last_pin_timestamp: string | null;
  flags: number;
  recipients: UserObject[];
};

export function toDmChannelObject(
  row: { id: string; lastMessageId: string | null; flags: number },
  other: UserObject,
  lastPinAt: Date | null,
): DmChannelObject {
  return {
    id: row.id,
    type: ChannelType.DM,
    last_message_id: row.lastMessageId,
    last_pin_timestamp: lastPinAt?.toISOString() ?? null,
    flags: row.flags,
    recipients: [other],
  };
}

/** The key that makes one DM channel a pair: both ids, lower first. */
export function dmKeyOf(a: string, b: string): string {
  return BigInt(a) < BigInt(b) ? `${a}:${b}` : `${b}:${a}`;
}
