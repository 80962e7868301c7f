import { GuildOnboardingMode, GuildOnboardingPromptType } from "discord-api-types/v10";
import { z } from "zod";
import { intChoice, lengthBetween, ZSnowflakeSchema } from "~/server/validation/fields.ts";

// Limits of the platform's UpdateGuildOnboardingRequest and its prompt and option requests.
export const ONBOARDING_PROMPTS_MAX = 15;
const ONBOARDING_OPTIONS_MIN = 1;
export const ONBOARDING_OPTIONS_MAX = 50;
export const ONBOARDING_PROMPT_TITLE_MAX = 100;
export const ONBOARDING_OPTION_TITLE_MAX = 50;
export const ONBOARDING_OPTION_DESCRIPTION_MAX = 100;
export const ONBOARDING_EMOJI_NAME_MAX = 100;
/** Channels or roles one option may add. */
export const ONBOARDING_OPTION_TARGETS_MAX = 50;
const ONBOARDING_DEFAULT_CHANNELS_MAX = 500;

const ONBOARDING_MODES = [GuildOnboardingMode.OnboardingDefault, GuildOnboardingMode.OnboardingAdvanced] as const;
const ONBOARDING_PROMPT_TYPES = [GuildOnboardingPromptType.MultipleChoice, GuildOnboardingPromptType.Dropdown] as const;

/** Distinct snowflakes, at most `max`; a repeat is an error at its index. */
function distinctSnowflakes(max: number) {
  return z
    .array(ZSnowflakeSchema)
    .max(max)
    .superRefine((ids, ctx) => {
      ids.forEach((id, index) => {
        if (ids.indexOf(id) !== index) ctx.addIssue({ code: "custom", path: [index], message: "Each id once.", params: { code: "BASE_TYPE_DUPLICATE" } });
      });
    });
}

/** An option as written: the emoji as emoji_id / emoji_name / emoji_animated (spec 2.4). */
const ZOnboardingOptionSchema = z.object({
  id: ZSnowflakeSchema.nullable().optional(),
  title: lengthBetween(1, ONBOARDING_OPTION_TITLE_MAX),
  description: lengthBetween(0, ONBOARDING_OPTION_DESCRIPTION_MAX).nullable().optional(),
  emoji_id: ZSnowflakeSchema.nullable().optional(),
  emoji_name: lengthBetween(0, ONBOARDING_EMOJI_NAME_MAX).nullable().optional(),
  emoji_animated: z.boolean().nullable().optional(),
  role_ids: distinctSnowflakes(ONBOARDING_OPTION_TARGETS_MAX).nullable().optional(),
  channel_ids: distinctSnowflakes(ONBOARDING_OPTION_TARGETS_MAX).nullable().optional(),
});

/** A prompt as written; an `id` that names none of the guild's prompts gets a new one. */
const ZOnboardingPromptSchema = z.object({
  id: ZSnowflakeSchema,
  title: lengthBetween(1, ONBOARDING_PROMPT_TITLE_MAX),
  options: z.array(ZOnboardingOptionSchema).min(ONBOARDING_OPTIONS_MIN).max(ONBOARDING_OPTIONS_MAX),
  single_select: z.boolean().nullable().optional(),
  required: z.boolean().nullable().optional(),
  in_onboarding: z.boolean().nullable().optional(),
  type: intChoice(ONBOARDING_PROMPT_TYPES).nullable().optional(),
});
export type TOnboardingPrompt = z.output<typeof ZOnboardingPromptSchema>;

/** PUT /guilds/{guild.id}/onboarding: every field optional; a missing or null one stays as it is. */
export const ZOnboardingBodySchema = z.object({
  prompts: z.array(ZOnboardingPromptSchema).max(ONBOARDING_PROMPTS_MAX).nullable().optional(),
  default_channel_ids: distinctSnowflakes(ONBOARDING_DEFAULT_CHANNELS_MAX).nullable().optional(),
  enabled: z.boolean().nullable().optional(),
  mode: intChoice(ONBOARDING_MODES).nullable().optional(),
});
export type TOnboardingBody = z.output<typeof ZOnboardingBodySchema>;
