import { z } from "zod";
import { lengthBetween } from "~/server/validation/fields.ts";

/** A voice channel's status line (spec 4.9, 6). */
export const VOICE_STATUS_MAX = 500;

/** PUT /channels/{channel.id}/voice-status: a missing, null or empty status clears it. */
export const ZVoiceStatusBodySchema = z.object({ status: lengthBetween(0, VOICE_STATUS_MAX).nullish() });
export type TVoiceStatusBody = z.output<typeof ZVoiceStatusBodySchema>;
