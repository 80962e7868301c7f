import type { Emoji, Guild } from "~/generated/prisma/client.ts";
import { currentEmoji } from "./setting-emoji.ts";

/** An option's emoji: a unicode one by name, a custom one of the guild by id. */
export type OnboardingEmoji = { id: string | null; name: string | null; animated: boolean };

/** A prompt option as read (spec 2.4): the emoji as an object. */
type OnboardingPromptOption = {
  id: string;
  title: string;
  description: string;
  emoji: OnboardingEmoji;
  role_ids: string[];
  channel_ids: string[];
};

export type OnboardingPrompt = {
  id: string;
  type: number;
  title: string;
  options: OnboardingPromptOption[];
  single_select: boolean;
  required: boolean;
  in_onboarding: boolean;
};

/** The onboarding object (GET and PUT /guilds/{guild.id}/onboarding). */
export type Onboarding = {
  guild_id: string;
  prompts: OnboardingPrompt[];
  default_channel_ids: string[];
  enabled: boolean;
  mode: number;
};

type OnboardingColumns = Pick<Guild, "id" | "onboardingEnabled" | "onboardingMode" | "onboardingDefaultChannelIds" | "onboardingPrompts">;

/** An option's custom emoji as the guild has it now; once deleted, the option shows none. */
function shownEmoji(emoji: OnboardingEmoji, guildEmojis: readonly Emoji[]): OnboardingEmoji {
  if (!emoji.id) return emoji;
  return currentEmoji(guildEmojis, emoji.id) ?? { id: null, name: null, animated: false };
}

/**
 * The onboarding object from the guild row. Channels and roles deleted since it was saved
 * are left out (`exists`), so neither the answer nor the requirement counts them; custom
 * emojis are shown as `guildEmojis` has them.
 */
export function toOnboarding(
  guild: OnboardingColumns,
  exists: { channel(id: string): boolean; role(id: string): boolean },
  guildEmojis: readonly Emoji[],
): Onboarding {
  const prompts = JSON.parse(guild.onboardingPrompts) as OnboardingPrompt[];
  return {
    guild_id: guild.id,
    prompts: prompts.map((prompt) => ({
      ...prompt,
      options: prompt.options.map((option) => ({
        ...option,
        emoji: shownEmoji(option.emoji, guildEmojis),
        channel_ids: option.channel_ids.filter((id) => exists.channel(id)),
        role_ids: option.role_ids.filter((id) => exists.role(id)),
      })),
    })),
    default_channel_ids: (JSON.parse(guild.onboardingDefaultChannelIds) as string[]).filter((id) => exists.channel(id)),
    enabled: guild.onboardingEnabled,
    mode: guild.onboardingMode,
  };
}

/** True while the guild has never had onboarding set up (every column at its default). */
export function isOnboardingUnset(guild: OnboardingColumns): boolean {
  return !guild.onboardingEnabled && guild.onboardingMode === 0 && guild.onboardingDefaultChannelIds === "[]" && guild.onboardingPrompts === "[]";
}
