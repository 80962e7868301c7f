import { AuditLogEvent as A, ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import type { AuditLogEntryObject } from "~/server/audit/audit.dto.ts";
import { idRangeAt } from "~/server/snowflake/snowflake.ts";
import { ACTION_OPTIONS, actionInfo } from "./audit-actions.ts";
import { describeEntry } from "./audit-describe.ts";
import { partsText, type Lookup } from "./audit-refs.ts";
import { formatDuration } from "./audit-values.ts";

const GUILD = "100000000000000001";
const MOD = "100000000000000002";
const OTTER = "100000000000000003";
const MODS_ROLE = "100000000000000004";
const GENERAL = "100000000000000005";
const GAMING = "100000000000000006";
const HOOK = "100000000000000007";
const GONE = "100000000000000099";
const AT = new Date("2026-11-25T06:23:49.000Z");
const ENTRY_ID = idRangeAt(AT).first;

const lookup: Lookup = {
  guildId: GUILD,
  names: {
    [GUILD]: { kind: "guild", name: "Demo Guild" },
    [MOD]: { kind: "user", name: "Demo User", username: "demo", member: true, banned: false },
    [OTTER]: { kind: "user", name: "silver_otter", username: "silver_otter", member: false, banned: true },
    [MODS_ROLE]: { kind: "role", name: "Moderators", color: 0xe67e22 },
    [GENERAL]: { kind: "channel", name: "lobby", type: ChannelType.GuildText, parentId: null },
    [GAMING]: { kind: "channel", name: "Gaming", type: ChannelType.GuildVoice, parentId: null },
    [HOOK]: { kind: "webhook", name: "Deploys", channelId: GENERAL },
    abc123: { kind: "invite", channelId: GENERAL },
  },
  lastKnown: {},
};

function entry(action_type: number, fields: Partial<AuditLogEntryObject> = {}): AuditLogEntryObject {
  return { id: ENTRY_ID, user_id: MOD, target_id: null, action_type, ...fields };
}

const sentence = (e: AuditLogEntryObject, l: Lookup = lookup) => partsText(describeEntry(e, l).sentence);
const changes = (e: AuditLogEntryObject, l: Lookup = lookup) => describeEntry(e, l).changes.map((c) => `${c.field}: ${partsText(c.parts)}`);

describe("describeEntry", () => {
  it("says who banned whom, with names, and links the banned user to the bans page", () => {
    const described = describeEntry(entry(A.MemberBanAdd, { target_id: OTTER, reason: "Posting scam links" }), lookup);
    expect(partsText(described.sentence)).toBe("Demo User banned silver_otter");
    expect(described.label).toBe("Member banned");
    expect(described.target?.href).toBe(`/guilds/${GUILD}/bans`);
  });

  it("tells a ban from a lifted ban", () => {
    expect(describeEntry(entry(A.MemberBanRemove, { target_id: OTTER }), lookup).label).toBe("Ban lifted");
    expect(sentence(entry(A.MemberBanRemove, { target_id: OTTER }))).toBe("Demo User lifted the ban on silver_otter");
  });

  it("reads a timeout as its length, and its end as a date with the length", () => {
    const until = new Date(AT.getTime() + 3600_000 + 150).toISOString();
    const timeout = entry(A.MemberUpdate, { target_id: OTTER, changes: [{ key: "communication_disabled_until", new_value: until }] });
    expect(sentence(timeout)).toBe("Demo User timed out silver_otter for 1 hour");
    expect(describeEntry(timeout, lookup).label).toBe("Member timed out");
    expect(changes(timeout)[0]).toMatch(/^Timeout: none → until 25 Nov 2026, \d\d:23 \(1 hour\)$/);
    const lifted = entry(A.MemberUpdate, { target_id: OTTER, changes: [{ key: "communication_disabled_until", old_value: until }] });
    expect(sentence(lifted)).toBe("Demo User removed the timeout of silver_otter");
    expect(changes(lifted)).toEqual(["Timeout: removed"]);
  });

  it("names the permissions a role gained or lost", () => {
    const granted = entry(A.RoleUpdate, {
      target_id: MODS_ROLE,
      changes: [{ key: "permissions", old_value: String(P.BanMembers), new_value: String(P.BanMembers | P.ManageEvents) }],
    });
    expect(sentence(granted)).toBe("Demo User granted Manage events to Moderators");
    expect(changes(granted)).toEqual(["Permissions: added Manage events"]);
    const taken = entry(A.RoleUpdate, {
      target_id: MODS_ROLE,
      changes: [{ key: "permissions", old_value: String(P.BanMembers | P.KickMembers), new_value: "0" }],
    });
    expect(sentence(taken)).toBe("Demo User took Kick members, Ban members from Moderators");
  });

  it("renames a channel from its old name to its new one", () => {
    const renamed = entry(A.ChannelUpdate, { target_id: GENERAL, changes: [{ key: "name", old_value: "general", new_value: "lobby" }] });
    expect(sentence(renamed)).toBe("Demo User renamed #general to #lobby");
    expect(describeEntry(renamed, lookup).target?.href).toBe(`/guilds/${GUILD}/channels/${GENERAL}/messages`);
  });

  it("says on and off for switches and shows durations in words", () => {
    const update = entry(A.ChannelUpdate, {
      target_id: GENERAL,
      changes: [
        { key: "nsfw", old_value: false, new_value: true },
        { key: "rate_limit_per_user", old_value: 0, new_value: 30 },
        { key: "parent_id", new_value: GAMING },
      ],
    });
    expect(sentence(update)).toBe("Demo User changed #lobby: age-restricted, slowmode, category");
    const renamedToo = entry(A.ChannelUpdate, {
      target_id: GENERAL,
      changes: [
        { key: "name", old_value: "off-topic", new_value: "lobby" },
        { key: "nsfw", old_value: false, new_value: true },
      ],
    });
    expect(sentence(renamedToo)).toBe("Demo User renamed #off-topic to #lobby and changed age-restricted");
    expect(changes(update)).toEqual(["Age-restricted: turned on", "Slowmode: Off → 30 seconds", "Category: none → Gaming"]);
  });

  it("marks deleted targets with the name the log last knew", () => {
    const withLastKnown = { ...lookup, lastKnown: { [GONE]: "Event Hosts" } };
    expect(sentence(entry(A.RoleUpdate, { target_id: GONE, changes: [{ key: "hoist", old_value: false, new_value: true }] }), withLastKnown)).toBe(
      "Demo User changed deleted role Event Hosts: shown separately",
    );
    expect(sentence(entry(A.RoleDelete, { target_id: GONE, changes: [{ key: "name", old_value: "Event Hosts" }] }))).toBe("Demo User deleted role Event Hosts");
    expect(sentence(entry(A.RoleCreate, { target_id: GONE, changes: [{ key: "name", new_value: "Event Hosts" }] }))).toBe(
      "Demo User created role Event Hosts (since deleted)",
    );
    expect(sentence(entry(A.ChannelUpdate, { target_id: GONE }))).toBe("Demo User changed a deleted channel");
    expect(describeEntry(entry(A.RoleDelete, { target_id: GONE }), lookup).target).toMatchObject({ deleted: true, href: null });
  });

  it("describes role colours as swatches and a deleted role's values as they were", () => {
    const deleted = describeEntry(
      entry(A.RoleDelete, {
        target_id: GONE,
        changes: [
          { key: "name", old_value: "Helpers" },
          { key: "color", old_value: 0x3498db },
          { key: "permissions", old_value: String(P.ViewAuditLog) },
        ],
      }),
      lookup,
    );
    expect(deleted.changes[1]?.parts).toEqual(["was ", { color: 0x3498db }]);
    expect(partsText(deleted.changes[2]!.parts)).toBe("was View audit log");
  });

  it("gives and takes roles by name, even a role deleted since", () => {
    const given = entry(A.MemberRoleUpdate, {
      target_id: OTTER,
      changes: [
        { key: "$add", new_value: [{ id: MODS_ROLE, name: "Moderators" }] },
        { key: "$remove", new_value: [{ id: GONE, name: "Old Timers" }] },
      ],
    });
    expect(sentence(given)).toBe("Demo User gave silver_otter Moderators and took away deleted role Old Timers");
  });

  it("describes channel overrides for a role in words", () => {
    const created = entry(A.ChannelOverwriteCreate, {
      target_id: GENERAL,
      options: { id: MODS_ROLE, type: "0", role_name: "Moderators" },
      changes: [
        { key: "id", new_value: MODS_ROLE },
        { key: "type", new_value: 0 },
        { key: "allow", new_value: String(P.ViewChannel | P.SendMessages) },
        { key: "deny", new_value: "0" },
      ],
    });
    expect(sentence(created)).toBe("Demo User added permission overrides for Moderators in #lobby");
    expect(changes(created)).toEqual(["Allowed: View channels, Send messages", "Denied: none"]);
    expect(describeEntry(created, lookup).details.map((d) => `${d.field}: ${partsText(d.parts)}`)).toEqual(["Override for: Moderators"]);
    const everyone = entry(A.ChannelOverwriteUpdate, {
      target_id: GENERAL,
      options: { id: GUILD, type: "0" },
      changes: [{ key: "deny", old_value: "0", new_value: String(P.SendMessages) }],
    });
    expect(sentence(everyone)).toBe("Demo User changed the permission overrides for @everyone in #lobby");
    expect(changes(everyone)).toEqual(["Denied: added Send messages"]);
  });

  it("describes invites, webhooks and kicks", () => {
    expect(
      sentence(
        entry(A.InviteCreate, {
          changes: [
            { key: "code", new_value: "abc123" },
            { key: "channel_id", new_value: GENERAL },
          ],
        }),
      ),
    ).toBe("Demo User created invite abc123 to #lobby");
    const revoked = entry(A.InviteDelete, {
      changes: [
        { key: "code", old_value: "zzz999" },
        { key: "max_age", old_value: 0 },
        { key: "max_uses", old_value: 0 },
      ],
    });
    expect(sentence(revoked)).toBe("Demo User revoked invite zzz999");
    expect(changes(revoked)).toEqual(["Code: was zzz999", "Expires after: was Never expires", "Maximum uses: was No limit"]);
    const hook = describeEntry(entry(A.WebhookUpdate, { target_id: HOOK, changes: [{ key: "name", old_value: "Builds", new_value: "Deploys" }] }), lookup);
    expect(partsText(hook.sentence)).toBe("Demo User renamed webhook Builds to Deploys");
    expect(hook.target?.href).toBe(`/guilds/${GUILD}/channels/${GENERAL}/webhooks`);
    expect(sentence(entry(A.MemberKick, { target_id: OTTER }))).toBe("Demo User kicked silver_otter");
  });

  it("describes prunes, moves, disconnects and deleted messages from their options", () => {
    expect(sentence(entry(A.MemberPrune, { options: { delete_member_days: "7", members_removed: "4" } }))).toBe(
      "Demo User pruned 4 members inactive for 1 week",
    );
    expect(sentence(entry(A.MemberMove, { options: { channel_id: GAMING, count: "1" } }))).toBe("Demo User moved 1 member to Gaming");
    expect(sentence(entry(A.MemberDisconnect, { options: { count: "2" } }))).toBe("Demo User disconnected 2 members from voice");
    expect(sentence(entry(A.MessageDelete, { target_id: OTTER, options: { channel_id: GENERAL, count: "1" } }))).toBe(
      "Demo User deleted 1 message by silver_otter in #lobby",
    );
  });

  it("describes guild settings, onboarding and voice status", () => {
    expect(sentence(entry(A.GuildUpdate, { target_id: GUILD, changes: [{ key: "name", old_value: "Old", new_value: "New" }] }))).toBe(
      "Demo User renamed the guild to New",
    );
    const settings = entry(A.GuildUpdate, {
      target_id: GUILD,
      changes: [
        { key: "verification_level", old_value: 0, new_value: 1 },
        { key: "rules_channel_id", new_value: GENERAL },
        { key: "features", old_value: ["NEWS"], new_value: ["NEWS", "COMMUNITY"] },
      ],
    });
    expect(sentence(entry(A.GuildUpdate, { target_id: GUILD, changes: [{ key: "features", old_value: [], new_value: ["COMMUNITY"] }] }))).toBe(
      "Demo User changed the guild's features: added Community",
    );
    expect(changes(settings)).toEqual(["Verification level: None → Low", "Rules channel: none → #lobby", "Features: added Community"]);
    const onboarding = entry(A.OnboardingUpdate, { target_id: GUILD, changes: [{ key: "enabled", old_value: false, new_value: true }] });
    expect(sentence(onboarding)).toBe("Demo User turned on onboarding");
    const channels = entry(A.OnboardingUpdate, { target_id: GUILD, changes: [{ key: "default_channel_ids", old_value: [GAMING], new_value: [GENERAL] }] });
    expect(changes(channels)).toEqual(["Default channels: added #lobby; removed Gaming"]);
    const prompt = entry(A.OnboardingPromptCreate, {
      target_id: GONE,
      changes: [
        { key: "title", new_value: "What do you play?" },
        { key: "options", new_value: [{ title: "Chess" }, { title: "Go" }] },
        { key: "type", new_value: 0 },
      ],
    });
    expect(sentence(prompt)).toBe("Demo User added the onboarding question What do you play? (since deleted)");
    expect(changes(prompt)).toEqual(["Question: “What do you play?”", "Answers: 2 answers: “Chess”, “Go”", "Type: Multiple choice"]);
    expect(sentence(entry(A.VoiceChannelStatusCreate, { target_id: GAMING, options: { channel_id: GAMING, status: "Raid night" } }))).toBe(
      "Demo User set the status of Gaming to “Raid night”",
    );
  });

  it("shows welcome screen settings in words, not JSON", () => {
    const welcome = entry(A.GuildUpdate, {
      target_id: GUILD,
      changes: [{ key: "welcome_screen", new_value: { description: "Hi", welcome_channels: [{ channel_id: GENERAL, description: "Chat" }] } }],
    });
    expect(changes(welcome)).toEqual(["Welcome screen: none → description “Hi”; 1 channel: #lobby"]);
  });

  it("says Guildhall did it when no user did", () => {
    expect(sentence(entry(A.RoleCreate, { user_id: null, target_id: MODS_ROLE }))).toBe("Guildhall created role Moderators");
  });

  it("has a sentence and a distinct label for every action the platform defines", () => {
    const labels = ACTION_OPTIONS.map((o) => o.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const { value } of ACTION_OPTIONS) {
      const text = sentence(entry(Number(value), { target_id: OTTER }));
      expect(text.startsWith("Demo User ")).toBe(true);
      expect(text).not.toMatch(/undefined|\[object|NaN/);
      expect(actionInfo(Number(value)).label).not.toBe("Other change");
    }
  });
});

describe("formatDuration", () => {
  it("reads lengths as a moderator would pick them", () => {
    expect(formatDuration(60_000)).toBe("1 minute");
    expect(formatDuration(24 * 3600_000)).toBe("1 day");
    expect(formatDuration(30 * 3600_000)).toBe("1 day 6 hours");
    expect(formatDuration(28 * 24 * 3600_000)).toBe("4 weeks");
  });
});
