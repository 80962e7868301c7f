import { z } from "zod";
import { lengthBetween, ZSnowflakeSchema, ZTimestampSchema } from "~/server/validation/fields.ts";

/** The services a user may connect (the platform's ConnectedAccountProviders). */
const CONNECTION_TYPES = [
  "battlenet",
  "bluesky",
  "bungie",
  "domain",
  "ebay",
  "epicgames",
  "facebook",
  "github",
  "instagram",
  "leagueoflegends",
  "mastodon",
  "paypal",
  "playstation",
  "reddit",
  "riotgames",
  "roblox",
  "skype",
  "spotify",
  "steam",
  "tiktok",
  "twitch",
  "twitter",
  "xbox",
  "youtube",
] as const;

const CONNECTION_NAME_MAX = 100;

/** A user's account on another service, as the CLI links one (the platform does it through OAuth2 with that service). */
export const ZConnectionAddSchema = z.object({
  user_id: ZSnowflakeSchema,
  type: z.enum(CONNECTION_TYPES),
  id: lengthBetween(1, CONNECTION_NAME_MAX, { trim: true }),
  name: lengthBetween(1, CONNECTION_NAME_MAX, { trim: true }),
  created_at: ZTimestampSchema.optional(),
  /** On the user's profile: NONE=0 (only them), EVERYONE=1. */
  visibility: z.literal([0, 1]).default(0),
  verified: z.boolean().default(true),
  revoked: z.boolean().default(false),
  friend_sync: z.boolean().default(false),
  show_activity: z.boolean().default(true),
  two_way_link: z.boolean().default(false),
});
export type TConnectionAdd = z.output<typeof ZConnectionAddSchema>;
