import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import {
  ALL_PERMISSIONS,
  CONNECT_DEPENDENT_PERMISSIONS,
  DEFAULT_EVERYONE_PERMISSIONS,
  canActOnMember,
  canManageRole,
  compareRoles,
  computeBasePermissions,
  computePermissions,
  hasAll,
  hasPermission,
  highestRole,
  highestRolePosition,
  isCommunicationDisabled,
  isPermissionString,
  limitsOf,
  missingPermissions,
  parsePermissions,
  roleHolder,
  serializePermissions,
  type ChannelInput,
  type PermissionHolder,
  type PermissionOverwriteInput,
  type RolePosition,
} from "~/server/permissions/permissions.ts";

const GUILD = "100"; // also the @everyone role id
const OWNER = "1";
const USER = "2";
const OTHER_USER = "3";
const ROLE_A = "10";
const ROLE_B = "11";
const ROLE_C = "12";

const V = P.ViewChannel;
const S = P.SendMessages;
const R = P.ReadMessageHistory;
const AR = P.AddReactions;
const TEXT_EXTRAS = P.EmbedLinks | P.AttachFiles | P.MentionEveryone | P.SendTTSMessages;

const everyoneOw = (allow: bigint, deny: bigint): PermissionOverwriteInput => ({ id: GUILD, type: 0, allow, deny });
const roleOw = (id: string, allow: bigint, deny: bigint): PermissionOverwriteInput => ({ id, type: 0, allow, deny });
const memberOw = (id: string, allow: bigint, deny: bigint): PermissionOverwriteInput => ({ id, type: 1, allow, deny });

describe("parsePermissions / serializePermissions", () => {
  it.each([
    ["0", 0n],
    ["8", P.Administrator],
    ["2048", S],
    ["2147483648", P.UseApplicationCommands], // bit 31: first bit past a signed 32-bit int
    ["281474976710656", P.SetVoiceChannelStatus], // 1 << 48
    ["9007199254740993", 2n ** 53n + 1n], // not representable as a JS number
    ["18446744073709551615", 2n ** 64n - 1n],
    ["007", 7n],
  ])("parses %j", (input, expected) => {
    expect(parsePermissions(input)).toBe(expected);
    expect(isPermissionString(input)).toBe(true);
  });

  it.each([
    "",
    " ",
    " 1",
    "1 ",
    "-1",
    "+1",
    "0x10",
    "1e3",
    "1.0",
    "1_000",
    "abc",
    "１", // full-width digit
    "18446744073709551616", // 2^64: wider than any permission set
    "123456789012345678901", // 21 digits
  ])("rejects %j", (input) => {
    expect(() => parsePermissions(input)).toThrow(RangeError);
    expect(isPermissionString(input)).toBe(false);
  });

  it.each([
    [0n, "0"],
    [P.SendMessages | P.AddReactions, "2112"],
    [P.SetVoiceChannelStatus, "281474976710656"],
    [P.SetVoiceChannelStatus | P.ViewChannel, "281474976711680"],
    [2n ** 53n + 1n, "9007199254740993"],
  ])("serializes %s as %j and round-trips", (value, wire) => {
    expect(serializePermissions(value)).toBe(wire);
    expect(parsePermissions(serializePermissions(value))).toBe(value);
  });

  it("refuses to serialize a negative set", () => {
    expect(() => serializePermissions(-1n)).toThrow(RangeError);
  });
});

describe("flag helpers", () => {
  it.each([
    ["single held flag", V | S, S, true],
    ["single missing flag", V, S, false],
    ["multi-bit flag, all held", V | S | R, V | S, true],
    ["multi-bit flag, one missing", V | R, V | S, false],
    ["bit above 31", P.SetVoiceChannelStatus, P.SetVoiceChannelStatus, true],
    ["bit above 31 missing", ALL_PERMISSIONS & ~P.SetVoiceChannelStatus, P.SetVoiceChannelStatus, false],
  ])("hasPermission: %s", (_name, perms, flag, expected) => {
    expect(hasPermission(perms, flag)).toBe(expected);
  });

  it.each([
    ["all held", V | S | R, [V, S, R], true],
    ["one missing", V | S, [V, S, R], false],
    ["no flags asked", 0n, [], true],
  ])("hasAll: %s", (_name, perms, flags, expected) => {
    expect(hasAll(perms, ...flags)).toBe(expected);
  });

  it.each([
    ["nothing missing", V | S | R, V | S, 0n],
    ["some missing", V, V | S | R, S | R],
    ["all missing", 0n, P.KickMembers | P.BanMembers, P.KickMembers | P.BanMembers],
    ["bit above 31", V, V | P.SendPolls, P.SendPolls],
  ])("missingPermissions: %s", (_name, held, wanted, expected) => {
    expect(missingPermissions(held, wanted)).toBe(expected);
  });
});

describe("constants", () => {
  it.each(Object.entries(P))("ALL_PERMISSIONS includes %s", (_name, bit) => {
    expect(ALL_PERMISSIONS & bit).toBe(bit);
  });

  it("ALL_PERMISSIONS is bits 0-52 except the unassigned bit 47 (discord-api-types 0.38.57)", () => {
    expect(ALL_PERMISSIONS).toBe((2n ** 53n - 1n) & ~(1n << 47n));
  });

  it("DEFAULT_EVERYONE_PERMISSIONS matches the platform default without the retired bit 47", () => {
    expect(DEFAULT_EVERYONE_PERMISSIONS).toBe(2248473465835073n & ~(1n << 47n));
  });

  it.each([
    ["ViewChannel", P.ViewChannel, true],
    ["SendMessages", P.SendMessages, true],
    ["Connect", P.Connect, true],
    ["Administrator", P.Administrator, false],
    ["ManageGuild", P.ManageGuild, false],
    ["KickMembers", P.KickMembers, false],
    ["ModerateMembers", P.ModerateMembers, false],
    ["SendTTSMessages", P.SendTTSMessages, false],
  ])("DEFAULT_EVERYONE_PERMISSIONS has %s: %s", (_name, bit, expected) => {
    expect(hasPermission(DEFAULT_EVERYONE_PERMISSIONS, bit)).toBe(expected);
  });
});

describe("computeBasePermissions", () => {
  it.each([
    ["owner gets ALL with no roles", OWNER, 0n, [], ALL_PERMISSIONS],
    ["@everyone only", USER, V | S, [], V | S],
    ["no permissions at all", USER, 0n, [], 0n],
    ["role union with @everyone", USER, V, [S, AR | R], V | S | AR | R],
    ["overlapping roles", USER, V | S, [S, V], V | S],
    ["ADMINISTRATOR via a role gives ALL", USER, V, [P.Administrator], ALL_PERMISSIONS],
    ["ADMINISTRATOR via @everyone gives ALL", USER, P.Administrator, [], ALL_PERMISSIONS],
    ["bits above 31 survive the union", USER, V, [P.SetVoiceChannelStatus], V | P.SetVoiceChannelStatus],
  ])("%s", (_name, userId, everyonePermissions, rolePermissions, expected) => {
    expect(computeBasePermissions({ ownerId: OWNER, userId, everyonePermissions, rolePermissions })).toBe(expected);
  });
});

describe("computePermissions", () => {
  /** A member with no roles, no timeout and no screening: what each case changes. */
  const member = (base: bigint, changes: Partial<PermissionHolder> = {}): PermissionHolder => ({
    userId: USER,
    base,
    roleIds: [],
    isTimedOut: false,
    isPending: false,
    ...changes,
  });
  const compute = (holder: PermissionHolder, channel?: ChannelInput) =>
    serializePermissions(computePermissions({ guildId: GUILD, holder, ...(channel && { channel }) }));

  describe("in a channel: overwrites, then implicit denials", () => {
    type Row = [name: string, base: bigint, memberRoleIds: string[], overwrites: PermissionOverwriteInput[], channelType: number, expected: bigint];
    const text = ChannelType.GuildText;
    const voice = ChannelType.GuildVoice;
    const stage = ChannelType.GuildStageVoice;

    it.each<Row>([
      // Overwrite steps and their order
      ["no overwrites keeps base", V | S | R, [], [], text, V | S | R],
      ["ADMINISTRATOR ignores overwrites", P.Administrator | V, [], [everyoneOw(0n, V), memberOw(USER, 0n, V)], text, ALL_PERMISSIONS],
      ["@everyone deny", V | S | R, [], [everyoneOw(0n, S)], text, V | R],
      ["@everyone allow", V, [], [everyoneOw(S | R, 0n)], text, V | S | R],
      ["@everyone deny then allow: allow wins within one overwrite", V, [], [everyoneOw(S, S)], text, V | S],
      ["role allow beats @everyone deny", V | S, [ROLE_A], [everyoneOw(0n, S), roleOw(ROLE_A, S, 0n)], text, V | S],
      ["role deny beats @everyone allow", V, [ROLE_A], [everyoneOw(S, 0n), roleOw(ROLE_A, 0n, S)], text, V],
      ["role deny removes a base permission", V | S | R, [ROLE_A], [roleOw(ROLE_A, 0n, R)], text, V | S],
      ["roles combine: one role's allow beats another's deny", V | S, [ROLE_A, ROLE_B], [roleOw(ROLE_A, 0n, S), roleOw(ROLE_B, S, 0n)], text, V | S],
      ["roles combine regardless of overwrite order", V | S, [ROLE_A, ROLE_B], [roleOw(ROLE_B, S, 0n), roleOw(ROLE_A, 0n, S)], text, V | S],
      ["roles combine: denies from several roles add up", V | S | R | AR, [ROLE_A, ROLE_B], [roleOw(ROLE_A, 0n, R), roleOw(ROLE_B, 0n, AR)], text, V | S],
      ["overwrite for a role the member lacks is ignored", V | S, [ROLE_A], [roleOw(ROLE_C, 0n, S)], text, V | S],
      ["member deny beats role allow", V, [ROLE_A], [roleOw(ROLE_A, S, 0n), memberOw(USER, 0n, S)], text, V],
      ["member allow beats role and @everyone deny", V | S, [ROLE_A], [everyoneOw(0n, S), roleOw(ROLE_A, 0n, S), memberOw(USER, S, 0n)], text, V | S],
      ["member deny then allow: allow wins within one overwrite", V, [], [memberOw(USER, S, S)], text, V | S],
      ["another member's overwrite is ignored", V | S, [], [memberOw(OTHER_USER, 0n, S)], text, V | S],
      ["a role-type overwrite with the user's id is not a member overwrite", V | S, [], [roleOw(USER, 0n, S)], text, V | S],
      ["a member-type overwrite with a role's id is not a role overwrite", V | S, [ROLE_A], [memberOw(ROLE_A, 0n, S)], text, V | S],
      // @everyone listed among the member's roles must not be applied again in the role step
      ["@everyone in memberRoleIds is not treated as a role", V, [GUILD, ROLE_A], [everyoneOw(S, 0n), roleOw(ROLE_A, 0n, S)], text, V],
      ["bits above 31 in overwrites", V, [], [everyoneOw(P.SendPolls, 0n)], text, V | P.SendPolls],

      // Implicit: VIEW_CHANNEL
      ["no VIEW_CHANNEL in base → 0", S | R | AR, [], [], text, 0n],
      ["@everyone denies VIEW_CHANNEL → 0", V | S | R, [], [everyoneOw(0n, V)], text, 0n],
      ["member denies VIEW_CHANNEL → 0 even with allows", V, [], [memberOw(USER, S | R, V)], text, 0n],
      ["role allow restores VIEW_CHANNEL", S, [ROLE_A], [everyoneOw(0n, V), roleOw(ROLE_A, V, 0n)], text, V | S],
      ["no VIEW_CHANNEL → 0 in voice too", P.Connect | P.Speak, [], [], voice, 0n],
      ["no VIEW_CHANNEL → 0 in a category", P.ManageChannels, [], [], ChannelType.GuildCategory, 0n],

      // Implicit: SEND_MESSAGES
      ["no SEND_MESSAGES drops mention/tts/attach/embed", V | TEXT_EXTRAS | AR | R, [], [], text, V | AR | R],
      ["denied SEND_MESSAGES drops mention/tts/attach/embed", V | S | TEXT_EXTRAS | AR, [], [everyoneOw(0n, S)], text, V | AR],
      ["SEND_MESSAGES keeps the dependents", V | S | TEXT_EXTRAS, [], [], text, V | S | TEXT_EXTRAS],
      ["announcement channel follows the send rule", V | P.EmbedLinks, [], [], ChannelType.GuildAnnouncement, V],
      ["forum channel follows the send rule", V | P.AttachFiles, [], [], ChannelType.GuildForum, V],
      ["voice text chat follows the send rule", V | P.Connect | P.EmbedLinks, [], [], voice, V | P.Connect],
      ["category has no send rule", V | TEXT_EXTRAS, [], [], ChannelType.GuildCategory, V | TEXT_EXTRAS],
      [
        "thread: SEND_MESSAGES_IN_THREADS keeps dependents",
        V | P.SendMessagesInThreads | P.EmbedLinks,
        [],
        [],
        ChannelType.PublicThread,
        V | P.SendMessagesInThreads | P.EmbedLinks,
      ],
      ["thread: SEND_MESSAGES alone does not", V | S | P.EmbedLinks, [], [], ChannelType.PrivateThread, V | S],

      // Implicit: CONNECT
      ["voice without CONNECT drops the voice permissions", V | S | CONNECT_DEPENDENT_PERMISSIONS | R, [], [], voice, V | S | R],
      ["voice with CONNECT denied by overwrite", V | S | P.Connect | P.Speak | P.Stream | P.MoveMembers, [], [everyoneOw(0n, P.Connect)], voice, V | S],
      ["voice without CONNECT drops MANAGE_CHANNELS and SET_VOICE_CHANNEL_STATUS", V | S | P.ManageChannels | P.SetVoiceChannelStatus, [], [], voice, V | S],
      ["voice with CONNECT keeps them", V | S | P.Connect | P.Speak | P.ManageChannels, [], [], voice, V | S | P.Connect | P.Speak | P.ManageChannels],
      ["stage without CONNECT drops REQUEST_TO_SPEAK", V | P.RequestToSpeak | P.MuteMembers, [], [], stage, V],
      ["text channel has no CONNECT rule", V | S | P.Speak | P.ManageChannels, [], [], text, V | S | P.Speak | P.ManageChannels],
    ])("%s", (_name, base, roleIds, overwrites, type, expected) => {
      expect(compute(member(base, { roleIds }), { type, overwrites })).toBe(serializePermissions(expected));
    });
  });

  describe("timeouts and membership screening", () => {
    const EVERYONE = V | S | R | AR;
    const MOD = EVERYONE | P.KickMembers | P.ModerateMembers | P.ManageGuild;
    const textChannel = (overwrites: PermissionOverwriteInput[] = []): ChannelInput => ({ type: ChannelType.GuildText, overwrites });
    type Row = [name: string, holder: PermissionHolder, channel: ChannelInput | undefined, expected: bigint];

    it.each<Row>([
      ["guild level, nothing held back", member(MOD), undefined, MOD],
      ["channel level applies the member's role overwrites", member(MOD, { roleIds: [ROLE_A] }), textChannel([everyoneOw(0n, S), roleOw(ROLE_A, S, 0n)]), MOD],
      ["channel level applies implicit denials", member(EVERYONE), textChannel([everyoneOw(0n, V)]), 0n],
      ["owner (ALL) at channel level despite overwrites", member(ALL_PERMISSIONS), textChannel([memberOw(USER, 0n, V)]), ALL_PERMISSIONS],
      // Timeouts
      ["a timeout keeps only VIEW_CHANNEL and READ_MESSAGE_HISTORY", member(MOD, { isTimedOut: true }), undefined, V | R],
      ["a timeout in a channel", member(MOD, { roleIds: [ROLE_A], isTimedOut: true }), textChannel([roleOw(ROLE_A, P.ManageMessages, 0n)]), V | R],
      ["a timeout cannot restore a hidden channel", member(EVERYONE, { isTimedOut: true }), textChannel([everyoneOw(0n, V)]), 0n],
      ["a timeout without READ_MESSAGE_HISTORY", member(EVERYONE, { isTimedOut: true }), textChannel([everyoneOw(0n, R)]), V],
      ["owners and administrators (ALL) are exempt from a timeout", member(ALL_PERMISSIONS, { isTimedOut: true }), textChannel(), ALL_PERMISSIONS],
      // Membership screening not completed: viewing only, as a timeout
      ["a pending member keeps only VIEW_CHANNEL and READ_MESSAGE_HISTORY", member(MOD, { isPending: true }), undefined, V | R],
      [
        "a pending member in a channel whose overwrite allows more",
        member(MOD, { isPending: true }),
        textChannel([memberOw(USER, P.ManageMessages, 0n)]),
        V | R,
      ],
      ["a pending member cannot see a hidden channel", member(EVERYONE, { isPending: true }), textChannel([everyoneOw(0n, V)]), 0n],
      ["pending and timed out: viewing only", member(MOD, { isPending: true, isTimedOut: true }), undefined, V | R],
      ["owners and administrators (ALL) are exempt from screening", member(ALL_PERMISSIONS, { isPending: true }), undefined, ALL_PERMISSIONS],
      // A role alone: no member overwrite applies, nothing holds it back
      ["a role alone skips member overwrites", roleHolder(EVERYONE), textChannel([memberOw(USER, 0n, S)]), EVERYONE],
      ["a role alone with its role's overwrites", roleHolder(EVERYONE, [ROLE_A]), textChannel([roleOw(ROLE_A, 0n, AR)]), V | S | R],
    ])("%s", (_name, holder, channel, expected) => {
      expect(compute(holder, channel)).toBe(serializePermissions(expected));
    });

    it("says what holds a member back, and nothing for owners and administrators", () => {
      expect(limitsOf(member(MOD, { isPending: true }))).toEqual({ isTimedOut: false, isPending: true });
      expect(limitsOf(member(MOD, { isTimedOut: true, isPending: true }))).toEqual({ isTimedOut: true, isPending: true });
      expect(limitsOf(member(ALL_PERMISSIONS, { isTimedOut: true, isPending: true }))).toEqual({ isTimedOut: false, isPending: false });
    });
  });
});

describe("isCommunicationDisabled", () => {
  const NOW = new Date("2025-06-01T12:00:00.000Z");
  it.each([
    ["no timeout", null, false],
    ["a timeout ending later is running", new Date("2025-06-02T12:00:00.000Z"), true],
    ["an expired timeout", new Date("2025-05-31T12:00:00.000Z"), false],
    ["a timeout ending exactly now has expired", NOW, false],
  ])("%s", (_name, until, expected) => {
    expect(isCommunicationDisabled(until, NOW)).toBe(expected);
  });
});

describe("role hierarchy", () => {
  it.each([
    ["higher position", { id: "50", position: 3 }, { id: "40", position: 2 }, 1],
    ["lower position", { id: "40", position: 1 }, { id: "50", position: 2 }, -1],
    ["same role", { id: "40", position: 2 }, { id: "40", position: 2 }, 0],
    ["equal position, smaller id ranks higher", { id: "40", position: 2 }, { id: "50", position: 2 }, 1],
    ["equal position, larger id ranks lower", { id: "50", position: 2 }, { id: "40", position: 2 }, -1],
    // Snowflakes exceed 2^53 and differ in the last digit: must compare as BigInt, not Number
    ["equal position, ids beyond 2^53", { id: "175928847299117063", position: 1 }, { id: "175928847299117064", position: 1 }, 1],
    ["equal position, ids of different length", { id: "9", position: 1 }, { id: "10", position: 1 }, 1],
  ])("compareRoles: %s", (_name, a, b, sign) => {
    expect(Math.sign(compareRoles(a, b))).toBe(sign);
    expect(Math.sign(compareRoles(b, a))).toBe(-sign || 0);
  });

  it("compareRoles sorts low → high with id tie-break", () => {
    const roles = [
      { id: "30", position: 2 },
      { id: "10", position: 1 },
      { id: "20", position: 2 },
      { id: "40", position: 0 },
    ];
    expect([...roles].sort(compareRoles).map((r) => r.id)).toEqual(["40", "10", "30", "20"]);
  });

  it.each([
    ["no roles → @everyone position", [], 0],
    ["single role", [{ id: "10", position: 4 }], 4],
    [
      "several roles",
      [
        { id: "10", position: 3 },
        { id: "11", position: 7 },
        { id: "12", position: 5 },
      ],
      7,
    ],
  ])("highestRolePosition: %s", (_name, roles, expected) => {
    expect(highestRolePosition(roles)).toBe(expected);
  });

  it.each([
    ["no roles", [], null],
    [
      "by position",
      [
        { id: "10", position: 3 },
        { id: "11", position: 7 },
      ],
      "11",
    ],
    [
      "tie broken by smaller id",
      [
        { id: "20", position: 5 },
        { id: "15", position: 5 },
        { id: "30", position: 1 },
      ],
      "15",
    ],
  ])("highestRole: %s", (_name, roles, expectedId) => {
    expect(highestRole(roles)?.id ?? null).toBe(expectedId);
  });

  const rank = (id: string, position: number) => ({ id, position });

  it.each<[string, boolean, RolePosition, RolePosition, boolean]>([
    ["higher", false, 5, 3, true],
    ["equal", false, 3, 3, false],
    ["lower", false, 2, 3, false],
    ["owner, lower", true, 0, 9, true],
    ["owner, equal", true, 3, 3, true],
    ["equal position, actor's role has the smaller id", false, rank("40", 3), rank("50", 3), true],
    ["equal position, actor's role has the larger id", false, rank("50", 3), rank("40", 3), false],
    ["the actor's own top role", false, rank("40", 3), rank("40", 3), false],
    ["mixed number and role compare positions only", false, 3, rank("50", 3), false],
  ])("canManageRole: %s", (_name, isOwner, actorHighestPosition, targetRolePosition, expected) => {
    expect(canManageRole({ isOwner, actorHighestPosition, targetRolePosition })).toBe(expected);
  });

  it.each<[string, boolean, boolean, RolePosition, RolePosition, boolean]>([
    ["higher", false, false, 5, 3, true],
    ["equal", false, false, 3, 3, false],
    ["lower", false, false, 2, 3, false],
    ["both without roles", false, false, 0, 0, false],
    ["actor is owner, target higher", true, false, 0, 9, true],
    ["target is owner, actor higher", false, true, 9, 0, false],
    ["target is owner, actor is owner", true, true, 9, 0, false],
    ["equal position, actor's role has the smaller id", false, false, rank("40", 3), rank("50", 3), true],
    ["equal position, actor's role has the larger id", false, false, rank("50", 3), rank("40", 3), false],
    ["same top role", false, false, rank("40", 3), rank("40", 3), false],
  ])("canActOnMember: %s", (_name, isActorOwner, isTargetOwner, actorHighestPosition, targetHighestPosition, expected) => {
    expect(canActOnMember({ isActorOwner, isTargetOwner, actorHighestPosition, targetHighestPosition })).toBe(expected);
  });
});
