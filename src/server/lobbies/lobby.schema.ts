import { MessageFlags } from "discord-api-types/v10";
import { z } from "zod";
import type { ChannelObject } from "~/server/channels/channel.dto.ts";
import type { UserObject } from "~/server/users/user.dto.ts";
import { intBetween, queryInt, ZSnowflakeSchema } from "~/server/validation/fields.ts";

// Lobby types are not in discord-api-types: they are defined here once (spec 2.5) with the
// limits of spec 8, for REST, tRPC and the dashboard's forms alike.

/** Lobby metadata, and a member's, hold at most this many characters, keys and values together. */
export const LOBBY_METADATA_MAX_TOTAL = 1000;
/** Members named in one create, modify or bulk request. */
const LOBBY_MEMBERS_PER_REQUEST_MAX = 25;
const LOBBY_IDLE_TIMEOUT_MIN_SECONDS = 5;
/** Seven days. */
export const LOBBY_IDLE_TIMEOUT_MAX_SECONDS = 604_800;
const LOBBY_SECRET_MAX = 250;
const LOBBY_MESSAGES_LIMIT_MAX = 200;
export const LOBBY_MESSAGES_LIMIT_DEFAULT = 50;
export const MODERATION_METADATA_KEYS_MAX = 5;
export const MODERATION_METADATA_KEY_MAX = 1024;
export const MODERATION_METADATA_VALUE_MAX = 2000;
/** The platform's documented capacities: members of one lobby, and lobbies of one application a user is in. */
export const LOBBY_MEMBERS_MAX = 1000;
export const LOBBIES_PER_USER_MAX = 100;
/** A lobby's channel invite: single use, for an hour. */
export const LOBBY_INVITE_MAX_AGE_SECONDS = 3600;
/** Idle shutdown when a create names none: the platform's five minutes. */
export const LOBBY_IDLE_TIMEOUT_DEFAULT_SECONDS = 300;
/** A lobby message's content, as the platform's SDK message request bounds it. */
const LOBBY_MESSAGE_CONTENT_MAX = 4000;
/**
 * Message flags a game client may set on its own message: the ones any sender may (no
 * embeds, no notification). Everything else the platform sets itself.
 */
const LOBBY_MESSAGE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications;

/** Gateway events of lobbies; they carry no guild. */
export const LobbyEvents = {
  Create: "LOBBY_CREATE",
  Update: "LOBBY_UPDATE",
  Delete: "LOBBY_DELETE",
  MemberAdd: "LOBBY_MEMBER_ADD",
  MemberUpdate: "LOBBY_MEMBER_UPDATE",
  MemberRemove: "LOBBY_MEMBER_REMOVE",
  MessageCreate: "LOBBY_MESSAGE_CREATE",
  MessageUpdate: "LOBBY_MESSAGE_UPDATE",
  MessageDelete: "LOBBY_MESSAGE_DELETE",
} as const;

/** Lobby member flags (spec 2.5). */
export const LobbyMemberFlags = {
  /** May link a text channel to the lobby. */
  CanLinkLobby: 1 << 0,
} as const;
const KNOWN_MEMBER_FLAGS = Object.values(LobbyMemberFlags).reduce((all, flag) => all | flag, 0);

export type LobbyMetadata = Record<string, string>;

export type LobbyMemberObject = { id: string; metadata: LobbyMetadata | null; flags: number };

export type LobbyObject = {
  id: string;
  application_id: string;
  metadata: LobbyMetadata | null;
  members: LobbyMemberObject[];
  linked_channel?: ChannelObject;
  flags: number;
};

export type LobbyMessageObject = {
  id: string;
  type: number;
  content: string;
  lobby_id: string;
  /** Equals `lobby_id`. */
  channel_id: string;
  author: UserObject;
  /** The sender's, for the members' clients; never copied to the linked channel. */
  metadata: LobbyMetadata | null;
  moderation_metadata: LobbyMetadata | null;
  flags: number;
  application_id: string;
};

export type LobbyInviteObject = { code: string };

/** Characters a metadata map holds, keys and values together. */
export function metadataLength(metadata: LobbyMetadata): number {
  return Object.entries(metadata).reduce((total, [key, value]) => total + [...key].length + [...value].length, 0);
}

/** A metadata map (nullable: null clears it) of at most LOBBY_METADATA_MAX_TOTAL characters. */
const ZLobbyMetadataSchema = z
  .record(z.string(), z.string())
  .refine((metadata) => metadataLength(metadata) <= LOBBY_METADATA_MAX_TOTAL, {
    message: `Metadata must be at most ${LOBBY_METADATA_MAX_TOTAL} characters in total.`,
    params: { code: "BASE_TYPE_MAX_LENGTH" },
  })
  .nullable();

const ZMemberFlagsSchema = z
  .number()
  .int()
  .refine((flags) => flags >= 0 && (flags & ~KNOWN_MEMBER_FLAGS) === 0, {
    message: "Only CanLinkLobby (1) may be set.",
    params: { code: "BASE_TYPE_CHOICES" },
  })
  .nullable();

const ZIdleTimeoutSchema = intBetween(LOBBY_IDLE_TIMEOUT_MIN_SECONDS, LOBBY_IDLE_TIMEOUT_MAX_SECONDS);

/** A member as a request names it: who, with their metadata and flags. */
const ZLobbyMemberInputSchema = z.object({ id: ZSnowflakeSchema, metadata: ZLobbyMetadataSchema.optional(), flags: ZMemberFlagsSchema.optional() });
export type TLobbyMemberInput = z.output<typeof ZLobbyMemberInputSchema>;

const ZMembersSchema = z.array(ZLobbyMemberInputSchema).max(LOBBY_MEMBERS_PER_REQUEST_MAX);

/** POST /lobbies (Bot). */
export const ZLobbyCreateBodySchema = z.object({
  metadata: ZLobbyMetadataSchema.optional(),
  members: ZMembersSchema.optional(),
  idle_timeout_seconds: ZIdleTimeoutSchema.optional(),
});
export type TLobbyCreateBody = z.output<typeof ZLobbyCreateBodySchema>;

/** PUT /lobbies (Bearer, sdk.social_layer): create by secret, or join the application's lobby with that secret. */
export const ZLobbyJoinBodySchema = z.object({
  secret: z.string().min(1).max(LOBBY_SECRET_MAX),
  idle_timeout_seconds: ZIdleTimeoutSchema.optional(),
  lobby_metadata: ZLobbyMetadataSchema.optional(),
  member_metadata: ZLobbyMetadataSchema.optional(),
});
export type TLobbyJoinBody = z.output<typeof ZLobbyJoinBodySchema>;

/** PATCH /lobbies/{lobby.id}: metadata overwrites; members replaces (members not listed leave). */
export const ZLobbyModifyBodySchema = ZLobbyCreateBodySchema.extend({});
export type TLobbyModifyBody = TLobbyCreateBody;

/** PUT /lobbies/{lobby.id}/members/{user.id}. */
export const ZLobbyMemberBodySchema = ZLobbyMemberInputSchema.omit({ id: true });
export type TLobbyMemberBody = z.output<typeof ZLobbyMemberBodySchema>;

/** POST /lobbies/{lobby.id}/members/bulk: 1 to 25 upserts or removals. */
export const ZLobbyBulkMembersBodySchema = z
  .array(ZLobbyMemberInputSchema.extend({ remove_member: z.boolean().nullish() }))
  .min(1)
  .max(LOBBY_MEMBERS_PER_REQUEST_MAX);
export type TLobbyBulkMembersBody = z.output<typeof ZLobbyBulkMembersBodySchema>;

/** PATCH /lobbies/{lobby.id}/channel-linking: a channel links it, no channel unlinks it. */
export const ZLobbyChannelLinkBodySchema = z.object({ channel_id: ZSnowflakeSchema.nullish() });

/** GET /lobbies/{lobby.id}/messages. */
export const ZLobbyMessagesQuerySchema = z.object({ limit: queryInt(1, LOBBY_MESSAGES_LIMIT_MAX).optional() });
export type TLobbyMessagesQuery = z.output<typeof ZLobbyMessagesQuerySchema>;

/** POST /lobbies/{lobby.id}/messages (Bearer, sdk.social_layer). */
export const ZLobbyMessageBodySchema = z.object({
  content: z.string().min(1).max(LOBBY_MESSAGE_CONTENT_MAX),
  metadata: ZLobbyMetadataSchema.optional(),
  flags: z
    .number()
    .int()
    .refine((flags) => flags >= 0 && (flags & ~LOBBY_MESSAGE_FLAGS) === 0, {
      message: "Only SUPPRESS_EMBEDS (4) and SUPPRESS_NOTIFICATIONS (4096) may be set.",
      params: { code: "BASE_TYPE_CHOICES" },
    })
    .nullish(),
});
export type TLobbyMessageBody = z.output<typeof ZLobbyMessageBodySchema>;

/** PUT /lobbies/{lobby.id}/messages/{message.id}/moderation-metadata: up to 5 string pairs. */
export const ZModerationMetadataBodySchema = z
  .record(z.string().max(MODERATION_METADATA_KEY_MAX), z.string().max(MODERATION_METADATA_VALUE_MAX))
  .refine((metadata) => Object.keys(metadata).length <= MODERATION_METADATA_KEYS_MAX, {
    message: `At most ${MODERATION_METADATA_KEYS_MAX} keys.`,
    params: { code: "BASE_TYPE_MAX_LENGTH" },
  });
export type TModerationMetadataBody = z.output<typeof ZModerationMetadataBodySchema>;
