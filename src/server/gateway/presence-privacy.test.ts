import { ActivityType, PresenceUpdateStatus, type GatewayActivity } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { isShownOnline, SMALL_SERVER_MAX_MEMBERS, visiblePresence, type SetPresence } from "./presence-privacy.ts";

const playing: GatewayActivity = { id: "a", name: "Chess", type: ActivityType.Playing, created_at: 1 };
const custom: GatewayActivity = { id: "custom", name: "Custom Status", type: ActivityType.Custom, state: "Out for lunch", created_at: 1 };
const presence: SetPresence = { status: PresenceUpdateStatus.DoNotDisturb, activities: [playing, custom] };

describe("visiblePresence", () => {
  it("shows every activity, custom status included, when the user lets everyone see it", () => {
    expect(visiblePresence(presence, { privacy: "everyone", guildMemberCount: 100_000 })).toEqual({ status: "dnd", activities: [playing, custom] });
  });

  it("with friends-and-small-servers, keeps the custom status in a guild of 200 members and leaves it out at 201", () => {
    expect(SMALL_SERVER_MAX_MEMBERS).toBe(200);
    expect(visiblePresence(presence, { privacy: "friends_and_small_servers", guildMemberCount: 200 }).activities).toEqual([playing, custom]);
    expect(visiblePresence(presence, { privacy: "friends_and_small_servers", guildMemberCount: 201 }).activities).toEqual([playing]);
  });

  it("with friends-only, leaves the custom status out in guilds of any size, other activities stay", () => {
    for (const guildMemberCount of [1, 200, 201, 5000]) {
      expect(visiblePresence(presence, { privacy: "friends_only", guildMemberCount })).toEqual({ status: "dnd", activities: [playing] });
    }
  });

  it("shows invisible, offline and no presence at all as offline without activities", () => {
    const audience = { privacy: "everyone", guildMemberCount: 2 } as const;
    for (const status of [PresenceUpdateStatus.Invisible, PresenceUpdateStatus.Offline]) {
      expect(visiblePresence({ status, activities: [playing] }, audience)).toEqual({ status: "offline", activities: [] });
    }
    expect(visiblePresence(null, audience)).toEqual({ status: "offline", activities: [] });
  });

  it("counts online, idle and dnd as online for others, never invisible", () => {
    expect(
      [PresenceUpdateStatus.Online, PresenceUpdateStatus.Idle, PresenceUpdateStatus.DoNotDisturb].map((status) => isShownOnline({ status, activities: [] })),
    ).toEqual([true, true, true]);
    expect(isShownOnline({ status: PresenceUpdateStatus.Invisible, activities: [] })).toBe(false);
    expect(isShownOnline(null)).toBe(false);
  });
});
