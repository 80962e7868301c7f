import { GuildFeature, Locale } from "discord-api-types/v10";
import { z } from "zod";
import { ZImageDataSchema } from "~/server/images/image.schema.ts";
import { intBetween, intChoice, lengthBetween, ZQueryBooleanSchema, ZSnowflakeSchema } from "~/server/validation/fields.ts";

const GUILD_NAME_MIN = 2;
export const GUILD_NAME_MAX = 100;
export const GUILD_DESCRIPTION_MAX = 300;
export const AFK_TIMEOUTS = [60, 300, 900, 1800, 3600] as const;
/** Bit set of every system channel flag the spec names (1<<0 … 1<<5). */
const SYSTEM_CHANNEL_FLAGS_MASK = 0b111111;

/** Feature strings the spec lists; `discord-api-types` supplies the values. */
const GUILD_FEATURES: readonly string[] = Object.values(GuildFeature);

/** Features a guild manager may toggle, and what toggling each needs (spec 2.2). */
export const MUTABLE_FEATURES = {
  [GuildFeature.Community]: "administrator",
  [GuildFeature.Discoverable]: "administrator",
  [GuildFeature.InvitesDisabled]: "manage_guild",
  [GuildFeature.RaidAlertsDisabled]: "manage_guild",
  // Owner-enabled (spec section 9).
  [GuildFeature.PruneRequiresAdmin]: "owner",
} as const satisfies Partial<Record<GuildFeature, "administrator" | "manage_guild" | "owner">>;

/** tRPC inputs that name a guild. */
export const ZGuildIdInputSchema = z.object({ guildId: ZSnowflakeSchema });

const ZGuildNameSchema = lengthBetween(GUILD_NAME_MIN, GUILD_NAME_MAX, { trim: true });
const ZVerificationLevelSchema = intBetween(0, 4);
const ZNotificationLevelSchema = intBetween(0, 1);
const ZContentFilterSchema = intBetween(0, 2);
const ZLocaleSchema = z.enum(Object.values(Locale) as [Locale, ...Locale[]]);
const ZFeatureSchema = z.string().refine((f) => GUILD_FEATURES.includes(f), { message: "Unknown guild feature.", params: { code: "BASE_TYPE_CHOICES" } });

/** PATCH /guilds/{guild.id} (spec 4.3): undefined leaves a field, null clears it. */
export const ZGuildModifyBodySchema = z
  .object({
    name: ZGuildNameSchema,
    region: z.string().nullable(),
    verification_level: ZVerificationLevelSchema.nullable(),
    default_message_notifications: ZNotificationLevelSchema.nullable(),
    explicit_content_filter: ZContentFilterSchema.nullable(),
    afk_channel_id: ZSnowflakeSchema.nullable(),
    afk_timeout: intChoice(AFK_TIMEOUTS),
    icon: ZImageDataSchema,
    splash: ZImageDataSchema,
    discovery_splash: ZImageDataSchema,
    banner: ZImageDataSchema,
    system_channel_id: ZSnowflakeSchema.nullable(),
    system_channel_flags: z.number().int().min(0).max(SYSTEM_CHANNEL_FLAGS_MASK),
    rules_channel_id: ZSnowflakeSchema.nullable(),
    public_updates_channel_id: ZSnowflakeSchema.nullable(),
    preferred_locale: ZLocaleSchema.nullable(),
    features: z.array(ZFeatureSchema).max(64),
    description: z.string().max(GUILD_DESCRIPTION_MAX).nullable(),
    premium_progress_bar_enabled: z.boolean(),
    safety_alerts_channel_id: ZSnowflakeSchema.nullable(),
    /** Transfers the guild: the owner only, to a member who is not a bot. */
    owner_id: ZSnowflakeSchema,
  })
  .partial();
export type TGuildModifyBody = z.output<typeof ZGuildModifyBodySchema>;

/** POST /guilds: the platform's create body (roles and channels use placeholder ids). */
export const ZGuildCreateBodySchema = z.object({
  name: ZGuildNameSchema,
  region: z.string().nullish(),
  icon: ZImageDataSchema.optional(),
  verification_level: ZVerificationLevelSchema.nullish(),
  default_message_notifications: ZNotificationLevelSchema.nullish(),
  explicit_content_filter: ZContentFilterSchema.nullish(),
  afk_timeout: intChoice(AFK_TIMEOUTS).nullish(),
  system_channel_flags: z.number().int().min(0).max(SYSTEM_CHANNEL_FLAGS_MASK).nullish(),
});
export type TGuildCreateBody = z.output<typeof ZGuildCreateBodySchema>;

export const ZGuildGetQuerySchema = z.object({ with_counts: ZQueryBooleanSchema.optional() });
