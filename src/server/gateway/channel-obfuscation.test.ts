import { ChannelFlags, ChannelType, OverwriteType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { OBFUSCATED_CHANNEL_NAME, obfuscateChannel } from "./channel-obfuscation.ts";

const GUILD = "1300000000000000000";
const ROLE = "1300000000000000001";
const EVERYONE_DENIED_VIEW = [
  { id: GUILD, type: OverwriteType.Role, allow: "0", deny: String(P.ViewChannel), allow_new: "0", deny_new: String(P.ViewChannel) },
];

describe("obfuscateChannel", () => {
  it("keeps which channel it is and where it sits, names it ___hidden___, nulls the rest and shows one overwrite hiding it", () => {
    const text = {
      id: "1300000000000000010",
      type: ChannelType.GuildText,
      guild_id: GUILD,
      name: "staff-plans",
      position: 3,
      flags: 0,
      parent_id: "1300000000000000009",
      permission_overwrites: [
        { id: GUILD, type: OverwriteType.Role, allow: "0", deny: String(P.ViewChannel) },
        { id: ROLE, type: OverwriteType.Role, allow: String(P.ViewChannel), deny: "0" },
      ],
      topic: "the secret agenda",
      nsfw: true,
      last_message_id: "1300000000000000099",
      rate_limit_per_user: 30,
      default_auto_archive_duration: 1440,
    };
    expect(obfuscateChannel(text, GUILD)).toEqual({
      id: text.id,
      type: ChannelType.GuildText,
      guild_id: GUILD,
      name: OBFUSCATED_CHANNEL_NAME,
      position: 3,
      flags: ChannelFlags.ChannelObfuscated,
      parent_id: text.parent_id,
      permission_overwrites: EVERYONE_DENIED_VIEW,
      topic: null,
      nsfw: null,
      last_message_id: null,
      rate_limit_per_user: null,
      default_auto_archive_duration: null,
    });
    expect(OBFUSCATED_CHANNEL_NAME).toBe("___hidden___");
    expect(ChannelFlags.ChannelObfuscated).toBe(1 << 17);
  });

  it("hides a voice channel's settings and a forum's tags, and keeps the channel's other flags", () => {
    const voice = obfuscateChannel(
      { id: "1", type: ChannelType.GuildVoice, position: 0, flags: 0, bitrate: 64000, user_limit: 5, rtc_region: "rotterdam", permission_overwrites: [] },
      GUILD,
    );
    expect(voice).toMatchObject({ bitrate: null, user_limit: null, rtc_region: null, permission_overwrites: EVERYONE_DENIED_VIEW });
    const forum = obfuscateChannel(
      {
        id: "2",
        type: ChannelType.GuildForum,
        position: 1,
        flags: ChannelFlags.RequireTag,
        available_tags: [{ id: "5", name: "bug", moderated: false, emoji_id: null, emoji_name: null }],
        default_reaction_emoji: { emoji_id: null, emoji_name: "👍" },
      },
      GUILD,
    );
    expect(forum).toMatchObject({ available_tags: [], default_reaction_emoji: null, flags: ChannelFlags.RequireTag | ChannelFlags.ChannelObfuscated });
  });

  it("hides a field it does not know of", () => {
    const hidden = obfuscateChannel({ id: "3", type: ChannelType.GuildText, position: 0, flags: 0, some_future_field: "revealing" }, GUILD);
    expect(hidden).toMatchObject({ some_future_field: null });
  });
});
