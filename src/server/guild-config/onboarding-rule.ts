// The onboarding requirement (spec 8), shared by the server, which enforces it, and the
// dashboard, which counts live while the selection is edited. Pure: no server imports.
import { GuildOnboardingMode } from "discord-api-types/v10";

/** Channels that must count before onboarding can be enabled. */
export const ONBOARDING_MIN_CHANNELS = 7;
/** Of those, how many @everyone must be able to view and send messages in. */
export const ONBOARDING_MIN_CHAT_CHANNELS = 5;

/** What the rule looks at: the mode, the default channels, and the prompts' option channels. */
export type OnboardingSelection = {
  mode: number;
  default_channel_ids: readonly string[];
  prompts: readonly { in_onboarding: boolean; options: readonly { channel_ids: readonly string[] }[] }[];
};

export type OnboardingRuleCheck = {
  /** Distinct channels that count for the mode. */
  channels: number;
  /** Of those, the ones @everyone can view and send messages in. */
  chatChannels: number;
  isMet: boolean;
  /** The counts that are short, e.g. "5 of 7 default channels; 3 of 5 that everyone can send messages in"; null when met. */
  shortfall: string | null;
};

/**
 * The channels that count: the default channels, and in advanced mode also those the
 * options of pre-join questions (`in_onboarding`) add, as the platform counts the
 * questions asked while joining, not the ones only in Channels & Roles.
 */
export function countedChannelIds(selection: OnboardingSelection): Set<string> {
  const ids = new Set(selection.default_channel_ids);
  if (selection.mode === GuildOnboardingMode.OnboardingAdvanced) {
    for (const prompt of selection.prompts) {
      if (!prompt.in_onboarding) continue;
      for (const option of prompt.options) for (const id of option.channel_ids) ids.add(id);
    }
  }
  return ids;
}

/** Checks the selection against the rule; `canEveryoneChat` tells whether @everyone can view and send in a channel. */
export function checkOnboardingRule(selection: OnboardingSelection, canEveryoneChat: (channelId: string) => boolean): OnboardingRuleCheck {
  const ids = [...countedChannelIds(selection)];
  const channels = ids.length;
  const chatChannels = ids.filter(canEveryoneChat).length;
  const what = selection.mode === GuildOnboardingMode.OnboardingAdvanced ? "channels from default channels and pre-join questions" : "default channels";
  const short: string[] = [];
  if (channels < ONBOARDING_MIN_CHANNELS) short.push(`${channels} of ${ONBOARDING_MIN_CHANNELS} ${what}`);
  if (chatChannels < ONBOARDING_MIN_CHAT_CHANNELS) short.push(`${chatChannels} of ${ONBOARDING_MIN_CHAT_CHANNELS} that everyone can send messages in`);
  return { channels, chatChannels, isMet: short.length === 0, shortfall: short.length ? short.join("; ") : null };
}
