import type { LobbyMember, LobbyMessage } from "~/generated/prisma/client.ts";
import type { UserCard } from "~/server/users/user-queries.ts";
import type { ChannelObject } from "~/server/channels/channel.dto.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import type { LobbyMemberObject, LobbyMessageObject, LobbyMetadata, LobbyObject } from "./lobby.schema.ts";

/** Metadata as stored: a JSON object, or null when there is none. */
export function storeMetadata(metadata: LobbyMetadata | null | undefined): string | null {
  return metadata && Object.keys(metadata).length > 0 ? JSON.stringify(metadata) : null;
}

export function readMetadata(json: string | null): LobbyMetadata | null {
  return json === null ? null : (JSON.parse(json) as LobbyMetadata);
}

export function toLobbyMemberObject(row: Pick<LobbyMember, "userId" | "metadata" | "flags">): LobbyMemberObject {
  return { id: row.userId, metadata: readMetadata(row.metadata), flags: row.flags };
}

export type LobbyRowWithMembers = {
  id: string;
  applicationId: string;
  metadata: string | null;
  flags: number;
  members: readonly Pick<LobbyMember, "userId" | "metadata" | "flags">[];
};

export function toLobbyObject(row: LobbyRowWithMembers, linkedChannel: ChannelObject | null): LobbyObject {
  return {
    id: row.id,
    application_id: row.applicationId,
    metadata: readMetadata(row.metadata),
    members: row.members.map(toLobbyMemberObject),
    ...(linkedChannel && { linked_channel: linkedChannel }),
    flags: row.flags,
  };
}

export function toLobbyMessageObject(row: LobbyMessage & { author: UserCard }, applicationId: string): LobbyMessageObject {
  return {
    id: row.id,
    type: 0,
    content: row.content,
    lobby_id: row.lobbyId,
    channel_id: row.lobbyId,
    author: toUserObject(row.author),
    metadata: readMetadata(row.metadata),
    moderation_metadata: readMetadata(row.moderationMetadata),
    flags: row.flags,
    application_id: applicationId,
  };
}
