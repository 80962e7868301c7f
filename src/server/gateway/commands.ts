import { GatewayIntentBits, PresenceUpdateStatus } from "discord-api-types/v10";
import { z } from "zod";

/** Every intent bit the platform defines; any other bit closes the connection with 4013. */
export const KNOWN_INTENTS = Object.values(GatewayIntentBits)
  .filter((bit): bit is number => typeof bit === "number")
  .reduce((all, bit) => all | bit, 0);

/** The frame every client command arrives in. */
export const ZFrameSchema = z.object({
  op: z.number().int(),
  d: z.unknown(),
  s: z.number().int().nullish(),
  t: z.string().nullish(),
});

/** PRESENCE_UPDATE (op 3), also IDENTIFY's `presence`. */
export const ZPresenceSchema = z.object({
  since: z.number().int().nonnegative().nullable(),
  activities: z.array(z.object({ name: z.string().max(128), type: z.number().int().min(0).max(5), url: z.string().nullish(), state: z.string().nullish() })),
  status: z.enum([
    PresenceUpdateStatus.Online,
    PresenceUpdateStatus.DoNotDisturb,
    PresenceUpdateStatus.Idle,
    PresenceUpdateStatus.Invisible,
    PresenceUpdateStatus.Offline,
  ]),
  afk: z.boolean(),
});
export type TPresenceCommand = z.output<typeof ZPresenceSchema>;

/** IDENTIFY (op 2). Intents are checked against the known bits separately: unknown bits are 4013, not 4002. */
export const ZIdentifySchema = z.object({
  token: z.string().min(1).max(512),
  properties: z.object({ os: z.string().max(256), browser: z.string().max(256), device: z.string().max(256) }),
  compress: z.boolean().optional(),
  large_threshold: z.number().int().min(50).max(250).default(50),
  shard: z.tuple([z.number().int(), z.number().int()]).optional(),
  presence: ZPresenceSchema.optional(),
  intents: z
    .number()
    .int()
    .nonnegative()
    .max(2 ** 31 - 1),
  /** Gateway capability bits (GatewayCapabilityBits); unknown bits are ignored, as the platform adds testing opt-ins here. */
  capabilities: z
    .number()
    .int()
    .nonnegative()
    .max(2 ** 31 - 1)
    .optional(),
});

export type IdentifyCommand = z.output<typeof ZIdentifySchema>;

/** RESUME (op 6). */
export const ZResumeSchema = z.object({
  token: z.string().min(1).max(512),
  session_id: z.string().min(1).max(128),
  seq: z.number().int().nonnegative(),
});

/** HEARTBEAT (op 1): the last sequence the client received, or null. */
export const ZHeartbeatSchema = z.number().int().nullable();
