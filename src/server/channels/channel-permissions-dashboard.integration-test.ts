import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { accessIn, channelPermissions, loadGuildState, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import { NAMED_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { memberKit } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

// The channel permissions editor shows, per permission and per overwrite, why the viewer may
// not change it; REST refuses exactly those changes. Effective permissions explain themselves.

const app = useTestApp();
const kit = memberKit(app);

type Overwrite = { id: string; type: 0 | 1; allow: string; deny: string };

/** A guild with a moderator holding `modPermissions`, and a Members role to write overwrites for. */
async function guildWithModerator(modPermissions: bigint) {
  const { owner, guild, api: asOwner, text } = await kit.setupWithChannels();
  const members = await kit.addRole(guild.id, 1, { name: "Members" });
  const moderator = await kit.addBotWithRole(guild.id, modPermissions, 2);
  const editor = (userId: string) => createCaller({ db: app.db, userId });
  return { owner, guild, asOwner, text, members, moderator, asModerator: editor(moderator.user.id), asOwnerCaller: editor(owner.user.id) };
}

describe("channel.permissions", () => {
  it("refuses, per permission, exactly what PATCH /channels/{id} refuses, and says why", async () => {
    const { text, members, moderator, asModerator } = await guildWithModerator(P.ViewChannel | P.ManageChannels | P.ManageRoles | P.SendMessages);
    const editor = await asModerator.channel.permissions({ channelId: text.id });
    expect(editor.denials.edit).toBeNull();
    const reasonOf = new Map(editor.bits.map((b) => [b.bit, b.reason]));
    expect(reasonOf.get(String(P.SendMessages))).toBeNull();
    expect(reasonOf.get(String(P.ManageMessages))).toBe("Needs Manage messages yourself to allow or deny it.");
    expect(reasonOf.get(String(P.ManageRoles))).toBe("Only administrators may allow or deny MANAGE_ROLES in a channel.");

    for (const { name, bit } of NAMED_PERMISSIONS) {
      const body = { permission_overwrites: [{ id: members.id, type: 0, allow: String(bit), deny: "0" }] };
      const response = await moderator.api.patch(`/channels/${text.id}`, body);
      expect(response.status >= 400, name).toBe(reasonOf.get(String(bit)) !== null);
      if (response.status === 200) expect((await moderator.api.patch(`/channels/${text.id}`, { permission_overwrites: [] })).status).toBe(200);
    }
  });

  it("says which overwrites cannot be removed, and keeps every change to a channel out of reach without MANAGE_ROLES", async () => {
    const { text, members, asOwner, asModerator, moderator } = await guildWithModerator(P.ViewChannel | P.ManageChannels | P.ManageRoles);
    const overwrites = [
      { id: members.id, type: 0, allow: String(P.ManageMessages), deny: "0" },
      { id: moderator.user.id, type: 1, allow: "0", deny: String(P.ManageChannels) },
    ];
    expect((await asOwner.patch(`/channels/${text.id}`, { permission_overwrites: overwrites })).status).toBe(200);
    // Denied MANAGE_CHANNELS here, the moderator can no longer edit this channel at all.
    const locked = await asModerator.channel.permissions({ channelId: text.id });
    expect(locked.denials.edit).toBe("Needs Manage channels in this channel.");
    expect(locked.bits.every((b) => b.reason === "Needs Manage channels in this channel.")).toBe(true);

    const onlyMembers = [{ id: members.id, type: 0, allow: String(P.ManageMessages), deny: "0" }];
    expect((await asOwner.patch(`/channels/${text.id}`, { permission_overwrites: onlyMembers })).status).toBe(200);
    const editor = await asModerator.channel.permissions({ channelId: text.id });
    const row = editor.overwrites.find((o) => o.id === members.id)!;
    expect(row).toMatchObject({ name: "Members", type: 0, allow: String(P.ManageMessages), remove: "Needs Manage messages yourself to allow or deny it." });
    expect((await moderator.api.patch(`/channels/${text.id}`, { permission_overwrites: [] })).status).toBe(403);
  });

  it("shows every permission as refused to a moderator without MANAGE_ROLES, with the reason REST enforces", async () => {
    const { text, members, moderator, asModerator } = await guildWithModerator(P.ViewChannel | P.ManageChannels | P.SendMessages);
    const editor = await asModerator.channel.permissions({ channelId: text.id });
    expect(editor.denials.edit).toBe("Needs Manage roles in this channel.");
    expect(new Set(editor.bits.map((b) => b.reason))).toEqual(new Set(["Needs Manage roles in this channel."]));
    const body = { permission_overwrites: [{ id: members.id, type: 0, allow: String(P.SendMessages) }] };
    expect((await moderator.api.patch(`/channels/${text.id}`, body)).status).toBe(403);
  });

  it("tells whether a channel is synced with its category, and syncs it through the reorder path with its audit entries and events", async () => {
    const { owner, guild, asOwner, members, asOwnerCaller, asModerator } = await guildWithModerator(P.ViewChannel | P.ManageRoles);
    const category = (await asOwner.post<{ id: string }>(`/guilds/${guild.id}/channels`, { name: "Staff", type: ChannelType.GuildCategory })).body;
    const hidden = [{ id: guild.id, type: 0, allow: "0", deny: String(P.ViewChannel) }];
    expect((await asOwner.patch(`/channels/${category.id}`, { permission_overwrites: hidden })).status).toBe(200);
    const overwrites = [...hidden, { id: members.id, type: 0, allow: String(P.ViewChannel), deny: "0" }];
    const channel = (
      await asOwner.post<{ id: string }>(`/guilds/${guild.id}/channels`, { name: "desk", parent_id: category.id, permission_overwrites: overwrites })
    ).body;

    const before = await asOwnerCaller.channel.permissions({ channelId: channel.id });
    expect(before).toMatchObject({ synced: false, parent: { id: category.id, name: "Staff" }, denials: { edit: null, sync: null } });
    expect(before.overwrites.map((o) => o.name).sort()).toEqual(["@everyone", "Members"]);
    // The moderator cannot see the channel, so has no editor for it at all.
    await expect(asModerator.channel.permissions({ channelId: channel.id })).rejects.toThrow(/Missing Access/);

    await asOwnerCaller.channel.reorder({ guildId: guild.id, positions: [{ id: channel.id, parent_id: category.id, lock_permissions: true }] });
    expect((await asOwnerCaller.channel.permissions({ channelId: channel.id })).synced).toBe(true);
    const deleted = await kit.auditOf(guild.id, AuditLogEvent.ChannelOverwriteDelete);
    expect(deleted).toEqual([
      expect.objectContaining({ userId: owner.user.id, targetId: channel.id, options: expect.objectContaining({ id: members.id, role_name: "Members" }) }),
    ]);
    const updates = await kit.eventsOf(guild.id, GatewayDispatchEvents.ChannelUpdate);
    expect(updates.at(-1)).toMatchObject({ id: channel.id, permission_overwrites: [{ id: guild.id, deny: String(P.ViewChannel) }] });
  });

  it("refuses a sync that would change a permission the moderator lacks, and says so", async () => {
    const { guild, asOwner, members, asModerator } = await guildWithModerator(P.ViewChannel | P.ManageChannels | P.ManageRoles);
    const category = (await asOwner.post<{ id: string }>(`/guilds/${guild.id}/channels`, { name: "Staff", type: ChannelType.GuildCategory })).body;
    const kept = [{ id: members.id, type: 0, allow: String(P.ManageMessages), deny: "0" }];
    const channel = (await asOwner.post<{ id: string }>(`/guilds/${guild.id}/channels`, { name: "desk", parent_id: category.id, permission_overwrites: kept }))
      .body;
    const editor = await asModerator.channel.permissions({ channelId: channel.id });
    expect(editor.synced).toBe(false);
    expect(editor.denials.sync).toBe("Needs Manage messages yourself to allow or deny it.");
    await expect(
      asModerator.channel.reorder({ guildId: guild.id, positions: [{ id: channel.id, parent_id: category.id, lock_permissions: true }] }),
    ).rejects.toThrow();
  });
});

describe("channel.effectivePermissions", () => {
  it("explains a member's permissions in a private channel step by step, as the service decides them", async () => {
    const { owner, guild, asOwner, members, asOwnerCaller } = await guildWithModerator(P.Administrator);
    const admin = await kit.addRole(guild.id, 3, { name: "Admins", permissions: P.Administrator });
    const overwrites = [
      { id: guild.id, type: 0, allow: "0", deny: String(P.ViewChannel) },
      { id: members.id, type: 0, allow: String(P.ViewChannel), deny: "0" },
    ];
    const channel = (await asOwner.post<{ id: string }>(`/guilds/${guild.id}/channels`, { name: "members-only", permission_overwrites: overwrites })).body;
    const member = await kit.addBot(guild.id, [members.id]);
    const muted = await kit.addBot(guild.id, [members.id]);
    const outsider = await kit.addBot(guild.id);
    const boss = await kit.addBot(guild.id, [admin.id]);
    const withMuted: Overwrite[] = [...overwrites, { id: muted.user.id, type: 1, allow: "0", deny: String(P.SendMessages) }] as Overwrite[];
    expect((await asOwner.patch(`/channels/${channel.id}`, { permission_overwrites: withMuted })).status).toBe(200);
    await kit.updateMember(guild.id, member.user.id, { communicationDisabledUntil: new Date(Date.now() + 60_000) });

    const of = async (target: { type: "role" | "member"; id: string }) => {
      const { permissions } = await asOwnerCaller.channel.effectivePermissions({ channelId: channel.id, target });
      return new Map(permissions.map((p) => [p.permission, p]));
    };
    const mutedView = await of({ type: "member", id: muted.user.id });
    expect(mutedView.get("VIEW_CHANNEL")).toEqual({
      permission: "VIEW_CHANNEL",
      bit: String(P.ViewChannel),
      allowed: true,
      sources: ["Granted by @everyone", "Denied to @everyone here", "Allowed to Members here"],
    });
    expect(mutedView.get("SEND_MESSAGES")).toMatchObject({ allowed: false, sources: ["Granted by @everyone", "Denied to this member here"] });
    expect(mutedView.get("ATTACH_FILES")).toMatchObject({ allowed: false, sources: ["Granted by @everyone", "Removed: cannot send messages"] });

    expect((await of({ type: "member", id: outsider.user.id })).get("VIEW_CHANNEL")).toMatchObject({
      allowed: false,
      sources: ["Granted by @everyone", "Denied to @everyone here"],
    });
    expect((await of({ type: "member", id: member.user.id })).get("SEND_MESSAGES")).toMatchObject({
      allowed: false,
      sources: ["Granted by @everyone", "Timed out"],
    });
    expect((await of({ type: "member", id: boss.user.id })).get("VIEW_CHANNEL")).toMatchObject({ allowed: true, sources: ["Administrator (Admins)"] });
    expect((await of({ type: "member", id: owner.user.id })).get("MANAGE_ROLES")).toMatchObject({ allowed: true, sources: ["Guild owner"] });
    expect((await of({ type: "role", id: members.id })).get("VIEW_CHANNEL")).toMatchObject({ allowed: true });
    expect((await of({ type: "role", id: guild.id })).get("VIEW_CHANNEL")).toMatchObject({ allowed: false });

    // The verdicts are the service's: what each member may do in the channel, and what REST lets them see.
    const state = await loadGuildState(app.db, guild.id);
    const row = (await state.channels()).byId.get(channel.id)!;
    for (const who of [owner, member, muted, outsider, boss]) {
      const held = channelPermissions(await accessIn(state, { userId: who.user.id }), { type: row.type, overwrites: toOverwriteInputs(row.overwrites) });
      const shown = await of({ type: "member", id: who.user.id });
      for (const { name, bit } of NAMED_PERMISSIONS) expect(shown.get(name)?.allowed, `${name}`).toBe((held & bit) === bit);
    }
    expect((await outsider.api.get(`/channels/${channel.id}`)).status).toBe(403);
    expect((await member.api.get(`/channels/${channel.id}`)).status).toBe(200);
  });

  it("answers 404 for a member or role that is not in the guild", async () => {
    const { text, asOwnerCaller } = await guildWithModerator(0n);
    await expect(asOwnerCaller.channel.effectivePermissions({ channelId: text.id, target: { type: "member", id: "1" } })).rejects.toThrow(/Unknown Member/);
    await expect(asOwnerCaller.channel.effectivePermissions({ channelId: text.id, target: { type: "role", id: "1" } })).rejects.toThrow(/Unknown Role/);
  });
});
