import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import type { Guild } from "~/generated/prisma/client.ts";
import type { GuildAccess } from "~/server/permissions/guild-access.ts";
import { DEFAULT_EVERYONE_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { voiceJoinDenial, type VoiceChannelFacts } from "./voice-rules.ts";

const GUILD_ID = "100";
const USER_ID = "200";

/** A member's access from their guild permissions; the rule reads no guild state or roles beyond these. */
function accessWith(permissions: bigint, limits: { isTimedOut?: boolean } = {}): GuildAccess {
  const access: Omit<GuildAccess, "state"> = {
    guild: { id: GUILD_ID, ownerId: "1" } as Guild,
    roles: [],
    topRole: null,
    userId: USER_ID,
    isOwner: false,
    memberRoleIds: [],
    permissions,
    basePermissions: permissions,
    isTimedOut: limits.isTimedOut ?? false,
    isPending: false,
  };
  return access as GuildAccess;
}

const room = (fields: Partial<VoiceChannelFacts> = {}): VoiceChannelFacts => ({ type: ChannelType.GuildVoice, overwrites: [], userLimit: 0, ...fields });
const denyEveryone = (deny: bigint) => [{ id: GUILD_ID, type: 0 as const, allow: 0n, deny }];

describe("voiceJoinDenial", () => {
  const member = accessWith(DEFAULT_EVERYONE_PERMISSIONS);

  it("lets a member with VIEW_CHANNEL and CONNECT join a voice or stage channel", () => {
    expect(voiceJoinDenial(member, room(), 0)).toBeNull();
    expect(voiceJoinDenial(member, room({ type: ChannelType.GuildStageVoice }), 0)).toBeNull();
  });

  it("refuses a channel that is not for voice", () => {
    expect(voiceJoinDenial(member, room({ type: ChannelType.GuildText }), 0)).toMatchObject({ error: "WRONG_CHANNEL_TYPE" });
  });

  it("refuses without CONNECT or VIEW_CHANNEL in the channel, overwrites applied", () => {
    expect(voiceJoinDenial(member, room({ overwrites: denyEveryone(P.Connect) }), 0)).toEqual({
      error: "MISSING_PERMISSIONS",
      reason: "Needs Connect in this channel.",
    });
    expect(voiceJoinDenial(member, room({ overwrites: denyEveryone(P.ViewChannel) }), 0)).toMatchObject({ error: "MISSING_PERMISSIONS" });
  });

  it("refuses a timed-out member, who keeps only viewing", () => {
    expect(voiceJoinDenial(accessWith(DEFAULT_EVERYONE_PERMISSIONS, { isTimedOut: true }), room(), 0)).toMatchObject({
      error: "MISSING_PERMISSIONS",
      reason: expect.stringContaining("timed out"),
    });
  });

  it("refuses a full channel unless the member may move members there", () => {
    expect(voiceJoinDenial(member, room({ userLimit: 2 }), 1)).toBeNull();
    expect(voiceJoinDenial(member, room({ userLimit: 2 }), 2)).toMatchObject({ error: "MISSING_PERMISSIONS", reason: expect.stringContaining("full") });
    expect(voiceJoinDenial(accessWith(DEFAULT_EVERYONE_PERMISSIONS | P.MoveMembers), room({ userLimit: 2 }), 2)).toBeNull();
    // No limit: 0 or none.
    expect(voiceJoinDenial(member, room({ userLimit: null }), 500)).toBeNull();
  });
});
