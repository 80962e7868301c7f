import { GuildOnboardingMode, GuildOnboardingPromptType } from "discord-api-types/v10";
import type { OnboardingSelection } from "~/server/guild-config/onboarding-rule.ts";
import type { TOnboardingBody } from "~/server/guild-config/onboarding.schema.ts";
import type { RouterOutputs } from "~/trpc/react.tsx";

export type Onboarding = RouterOutputs["onboarding"]["get"];
export type ChannelGroup = RouterOutputs["onboarding"]["channels"][number];

/** Ids the server has not given yet: any snowflake that names no prompt or option gets a new id. */
const NEW_ID = "0";
let nextKey = 0;
const newKey = () => `new-${nextKey++}`;

export type OptionValues = {
  /** React's key for the row, stable while rows move. */
  key: string;
  id: string;
  title: string;
  description: string;
  emoji_name: string;
  /** A custom emoji's id and animation, kept as the server had them while the name stays. */
  emoji_id: string | null;
  emoji_animated: boolean;
  channel_ids: string[];
  role_ids: string[];
};

export type PromptValues = {
  key: string;
  id: string;
  title: string;
  /** The prompt type as the segmented control holds it ("0" multiple choice, "1" dropdown). */
  type: string;
  single_select: boolean;
  required: boolean;
  in_onboarding: boolean;
  options: OptionValues[];
};

export type OnboardingValues = { enabled: boolean; mode: string; default_channel_ids: string[]; prompts: PromptValues[] };

export function toOnboardingValues(onboarding: Onboarding): OnboardingValues {
  return {
    enabled: onboarding.enabled,
    mode: String(onboarding.mode),
    default_channel_ids: onboarding.default_channel_ids,
    prompts: onboarding.prompts.map((prompt) => ({
      key: prompt.id,
      id: prompt.id,
      title: prompt.title,
      type: String(prompt.type),
      single_select: prompt.single_select,
      required: prompt.required,
      in_onboarding: prompt.in_onboarding,
      options: prompt.options.map((option) => ({
        key: option.id,
        id: option.id,
        title: option.title,
        description: option.description,
        emoji_name: option.emoji.name ?? "",
        emoji_id: option.emoji.id,
        emoji_animated: option.emoji.animated,
        channel_ids: option.channel_ids,
        role_ids: option.role_ids,
      })),
    })),
  };
}

export function newOption(): OptionValues {
  return { key: newKey(), id: NEW_ID, title: "", description: "", emoji_name: "", emoji_id: null, emoji_animated: false, channel_ids: [], role_ids: [] };
}

export function newPrompt(): PromptValues {
  return {
    key: newKey(),
    id: NEW_ID,
    title: "",
    type: String(GuildOnboardingPromptType.MultipleChoice),
    single_select: false,
    required: false,
    in_onboarding: true,
    options: [newOption()],
  };
}

/** The PUT body: the whole onboarding as the form holds it. */
export function toOnboardingBody(values: OnboardingValues) {
  return {
    enabled: values.enabled,
    mode: Number(values.mode),
    default_channel_ids: values.default_channel_ids,
    prompts: values.prompts.map((prompt) => ({
      id: prompt.id,
      title: prompt.title.trim(),
      type: Number(prompt.type),
      single_select: prompt.single_select,
      required: prompt.required,
      in_onboarding: prompt.in_onboarding,
      options: prompt.options.map((option) => {
        const emojiName = option.emoji_name.trim();
        return {
          id: option.id,
          title: option.title.trim(),
          description: option.description.trim() || null,
          // Clearing the name clears the emoji, custom ones included.
          emoji_name: emojiName || null,
          emoji_id: emojiName ? option.emoji_id : null,
          emoji_animated: emojiName ? option.emoji_animated : null,
          channel_ids: option.channel_ids,
          role_ids: option.role_ids,
        };
      }),
    })),
  } satisfies TOnboardingBody;
}

/** What the requirement counts, from the form. */
export function toSelection(values: OnboardingValues): OnboardingSelection {
  return { mode: Number(values.mode), default_channel_ids: values.default_channel_ids, prompts: values.prompts };
}

/**
 * The form paths server errors can land on, most specific first (a server path such as
 * `prompts.0.options.2.channel_ids.1` lands on the first path it equals or starts with).
 */
export function errorFieldPaths(values: OnboardingValues): string[] {
  const paths: string[] = [];
  values.prompts.forEach((prompt, p) => {
    prompt.options.forEach((_, o) => {
      for (const field of ["title", "description", "emoji_name", "emoji_id", "channel_ids", "role_ids"]) paths.push(`prompts.${p}.options.${o}.${field}`);
    });
    for (const field of ["title", "options", "type"]) paths.push(`prompts.${p}.${field}`);
  });
  return [...paths, "default_channel_ids", "prompts", "mode", "enabled"];
}

export const MODE_CHOICES = [
  {
    value: String(GuildOnboardingMode.OnboardingDefault),
    label: "Default",
    description: "Only the default channels count toward the requirement.",
  },
  {
    value: String(GuildOnboardingMode.OnboardingAdvanced),
    label: "Advanced",
    description: "Default channels and the channels that pre-join questions add both count.",
  },
] as const;

export const PROMPT_TYPE_CHOICES = [
  { value: String(GuildOnboardingPromptType.MultipleChoice), label: "Multiple choice" },
  { value: String(GuildOnboardingPromptType.Dropdown), label: "Dropdown" },
];
