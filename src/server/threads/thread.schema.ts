import { ChannelType, MessageFlags } from "discord-api-types/v10";
import { z } from "zod";
import { AUTO_ARCHIVE_DURATIONS, RATE_LIMIT_PER_USER_MAX, ZChannelNameSchema } from "~/server/channels/channel.schema.ts";
import { ZMessageFieldsSchema } from "~/server/messages/message.schema.ts";
import { intBetween, intChoice, queryInt, ZQueryBooleanSchema, ZSnowflakeSchema, ZTimestampSchema } from "~/server/validation/fields.ts";

/** A forum or media post carries at most this many tags. */
export const APPLIED_TAGS_MAX = 5;
/** Active (unarchived) threads a guild may have at once. */
export const MAX_ACTIVE_THREADS = 1000;
/** When neither the request nor the parent says, a thread archives after a day of quiet. */
export const DEFAULT_AUTO_ARCHIVE_DURATION = 1440;

const THREAD_CREATE_TYPES = [ChannelType.AnnouncementThread, ChannelType.PublicThread, ChannelType.PrivateThread] as const;

const ZAutoArchiveDurationSchema = intChoice(AUTO_ARCHIVE_DURATIONS);
const ZRateLimitPerUserSchema = intBetween(0, RATE_LIMIT_PER_USER_MAX);
const ZAppliedTagsSchema = z.array(ZSnowflakeSchema).max(APPLIED_TAGS_MAX);

/** The flags a forum or media post's first message may carry (the platform's forum thread message params). */
const POST_MESSAGE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications;

/** The first message of a forum or media post: a message without tts, poll or reply. */
const ZForumPostMessageSchema = ZMessageFieldsSchema.pick({ content: true, embeds: true, allowed_mentions: true, components: true, attachments: true }).extend({
  flags: z
    .number()
    .int()
    .min(0)
    .refine((flags) => (flags & ~POST_MESSAGE_FLAGS) === 0, {
      message: "Only SUPPRESS_EMBEDS and SUPPRESS_NOTIFICATIONS can be set.",
      params: { code: "MESSAGE_FLAGS_INVALID" },
    })
    .nullish(),
});

/**
 * POST /channels/{channel.id}/threads: a thread without a message in text and announcement
 * channels; in forum and media channels a post, whose `message` is required and which
 * may carry the channel's tags.
 */
export const ZThreadCreateBodySchema = z.object({
  name: ZChannelNameSchema,
  auto_archive_duration: ZAutoArchiveDurationSchema.nullish(),
  type: intChoice(THREAD_CREATE_TYPES).nullish(),
  invitable: z.boolean().nullish(),
  rate_limit_per_user: ZRateLimitPerUserSchema.nullish(),
  message: ZForumPostMessageSchema.optional(),
  applied_tags: ZAppliedTagsSchema.nullish(),
});
export type TThreadCreateBody = z.output<typeof ZThreadCreateBodySchema>;

/** PATCH /channels/{channel.id} on a thread: the fields a thread has. */
export const ZThreadModifyBodySchema = z.object({
  name: ZChannelNameSchema.optional(),
  archived: z.boolean().optional(),
  auto_archive_duration: ZAutoArchiveDurationSchema.optional(),
  locked: z.boolean().optional(),
  invitable: z.boolean().optional(),
  rate_limit_per_user: ZRateLimitPerUserSchema.nullish(),
  flags: z.number().int().min(0).optional(),
  applied_tags: ZAppliedTagsSchema.optional(),
});
export type TThreadModifyBody = z.output<typeof ZThreadModifyBodySchema>;

const ARCHIVED_THREADS_MIN = 2;
const ARCHIVED_THREADS_MAX = 100;
export const ARCHIVED_THREADS_DEFAULT = 50;

/** GET /channels/{channel.id}/threads/archived/{public,private}: threads archived before a time, newest archive first. */
export const ZArchivedThreadsQuerySchema = z.object({
  before: ZTimestampSchema.optional(),
  limit: queryInt(ARCHIVED_THREADS_MIN, ARCHIVED_THREADS_MAX).optional(),
});
export type TArchivedThreadsQuery = z.output<typeof ZArchivedThreadsQuerySchema>;

/** GET /channels/{channel.id}/users/@me/threads/archived/private: before a thread id, newest thread first. */
export const ZJoinedArchivedThreadsQuerySchema = z.object({
  before: ZSnowflakeSchema.optional(),
  limit: queryInt(ARCHIVED_THREADS_MIN, ARCHIVED_THREADS_MAX).optional(),
});
export type TJoinedArchivedThreadsQuery = z.output<typeof ZJoinedArchivedThreadsQuerySchema>;

/** POST /channels/{channel.id}/messages/{message.id}/threads: a thread from a message takes its name and timing only. */
export const ZMessageThreadBodySchema = ZThreadCreateBodySchema.pick({ name: true, auto_archive_duration: true, rate_limit_per_user: true });
export type TMessageThreadBody = z.output<typeof ZMessageThreadBodySchema>;

/** GET /channels/{thread.id}/thread-members/{user.id}: with_member adds each one's guild member. */
export const ZThreadMemberQuerySchema = z.object({ with_member: ZQueryBooleanSchema.optional() });

/** GET /channels/{thread.id}/thread-members: by user id after `after`, 1-100 (100). */
export const ZThreadMembersQuerySchema = ZThreadMemberQuerySchema.extend({
  after: ZSnowflakeSchema.optional(),
  limit: queryInt(1, 100).optional(),
});
