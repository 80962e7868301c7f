import { ChannelType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { normalizeChannelName, savedChannelName } from "./channel-name.ts";

describe("normalizeChannelName", () => {
  it("names text-like channels in lower case with dashes", () => {
    for (const type of [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum, ChannelType.GuildMedia]) {
      expect(normalizeChannelName(type, "Game Night")).toBe("game-night");
    }
    expect(normalizeChannelName(ChannelType.GuildText, "  Joey's  Cool -- Room! ")).toBe("joeys-cool-room");
    expect(normalizeChannelName(ChannelType.GuildText, "Ünïcode_Names 🎲")).toBe("ünïcode_names-🎲");
  });

  it("keeps voice, stage and category names as typed", () => {
    for (const type of [ChannelType.GuildVoice, ChannelType.GuildStageVoice, ChannelType.GuildCategory]) {
      expect(normalizeChannelName(type, "Game Night!")).toBe("Game Night!");
    }
  });

  it("refuses a text channel name with nothing left", () => {
    expect(() => savedChannelName(ChannelType.GuildText, "?!")).toThrow(expect.objectContaining({ code: 50035 }));
    expect(savedChannelName(ChannelType.GuildVoice, "?!")).toBe("?!");
  });
});
