import { GuildOnboardingMode } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { checkOnboardingRule, countedChannelIds, type OnboardingSelection } from "./onboarding-rule.ts";

const { OnboardingDefault: DEFAULT, OnboardingAdvanced: ADVANCED } = GuildOnboardingMode;
const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
// Channels whose id starts with "m" are muted for @everyone; every other one is open.
const open = (id: string) => !id.startsWith("m");
const prompt = (channelIds: string[], inOnboarding = true) => ({ in_onboarding: inOnboarding, options: [{ channel_ids: channelIds }] });

describe("checkOnboardingRule", () => {
  const cases: { name: string; selection: OnboardingSelection; channels: number; chat: number; shortfall: string | null }[] = [
    { name: "7 open default channels", selection: { mode: DEFAULT, default_channel_ids: ids("c", 7), prompts: [] }, channels: 7, chat: 7, shortfall: null },
    {
      name: "6 default channels",
      selection: { mode: DEFAULT, default_channel_ids: ids("c", 6), prompts: [] },
      channels: 6,
      chat: 6,
      shortfall: "6 of 7 default channels",
    },
    {
      name: "7 default channels of which 4 open",
      selection: { mode: DEFAULT, default_channel_ids: [...ids("c", 4), ...ids("m", 3)], prompts: [] },
      channels: 7,
      chat: 4,
      shortfall: "4 of 5 that everyone can send messages in",
    },
    {
      name: "both short",
      selection: { mode: DEFAULT, default_channel_ids: [...ids("c", 3), ...ids("m", 2)], prompts: [] },
      channels: 5,
      chat: 3,
      shortfall: "5 of 7 default channels; 3 of 5 that everyone can send messages in",
    },
    {
      name: "default mode ignores option channels",
      selection: { mode: DEFAULT, default_channel_ids: ids("c", 4), prompts: [prompt(ids("o", 5))] },
      channels: 4,
      chat: 4,
      shortfall: "4 of 7 default channels; 4 of 5 that everyone can send messages in",
    },
    {
      name: "advanced mode adds pre-join option channels",
      selection: { mode: ADVANCED, default_channel_ids: ids("c", 4), prompts: [prompt(ids("o", 3))] },
      channels: 7,
      chat: 7,
      shortfall: null,
    },
    {
      name: "advanced mode counts a channel in both places once",
      selection: { mode: ADVANCED, default_channel_ids: ids("c", 5), prompts: [prompt(["c0", "c1", "o0"])] },
      channels: 6,
      chat: 6,
      shortfall: "6 of 7 channels from default channels and pre-join questions",
    },
    {
      name: "advanced mode skips questions outside onboarding",
      selection: { mode: ADVANCED, default_channel_ids: ids("c", 4), prompts: [prompt(ids("o", 3), false)] },
      channels: 4,
      chat: 4,
      shortfall: "4 of 7 channels from default channels and pre-join questions; 4 of 5 that everyone can send messages in",
    },
  ];

  it.each(cases)("$name", ({ selection, channels, chat, shortfall }) => {
    expect(checkOnboardingRule(selection, open)).toEqual({ channels, chatChannels: chat, isMet: shortfall === null, shortfall });
  });

  it("dedupes repeated default channels", () => {
    expect(countedChannelIds({ mode: DEFAULT, default_channel_ids: ["a", "a", "b"], prompts: [] })).toEqual(new Set(["a", "b"]));
  });
});
