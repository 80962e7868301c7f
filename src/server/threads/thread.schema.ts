import { ChannelType } from "discord-api-types/v10";
import { z } from "zod";
import { AUTO_ARCHIVE_DURATIONS, RATE_LIMIT_PER_USER_MAX, ZChannelName } from "~/server/channels/channel.schema.ts";
import { intBetween, intChoice, ZSnowflake } from "~/server/validation/fields.ts";

/** A forum or media post carries at most this many tags. */
export const APPLIED_TAGS_MAX = 5;
/** Active (unarchived) threads a guild may have at once. */
export const MAX_ACTIVE_THREADS = 1000;
/** When neither the request nor the parent says, a thread archives after a day of quiet. */
export const DEFAULT_AUTO_ARCHIVE_DURATION = 1440;

export const THREAD_CREATE_TYPES = [ChannelType.AnnouncementThread, ChannelType.PublicThread, ChannelType.PrivateThread] as const;

const ZAutoArchiveDuration = intChoice(AUTO_ARCHIVE_DURATIONS);
const ZRateLimitPerUser = intBetween(0, RATE_LIMIT_PER_USER_MAX);

/** POST /channels/{channel.id}/threads: start a thread without a message. */
export const ZThreadCreateBodySchema = z.object({
  name: ZChannelName,
  auto_archive_duration: ZAutoArchiveDuration.nullish(),
  type: intChoice(THREAD_CREATE_TYPES).nullish(),
  invitable: z.boolean().nullish(),
  rate_limit_per_user: ZRateLimitPerUser.nullish(),
});
export type TThreadCreateBody = z.output<typeof ZThreadCreateBodySchema>;

/** PATCH /channels/{channel.id} on a thread: the fields a thread has. */
export const ZThreadModifyBodySchema = z.object({
  name: ZChannelName.optional(),
  archived: z.boolean().optional(),
  auto_archive_duration: ZAutoArchiveDuration.optional(),
  locked: z.boolean().optional(),
  invitable: z.boolean().optional(),
  rate_limit_per_user: ZRateLimitPerUser.nullish(),
  flags: z.number().int().min(0).optional(),
  applied_tags: z.array(ZSnowflake).max(APPLIED_TAGS_MAX).optional(),
});
export type TThreadModifyBody = z.output<typeof ZThreadModifyBodySchema>;
