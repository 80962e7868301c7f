import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { makeUser } from "~/test/factories.ts";
import { memberKit, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = memberKit(app);

type Overwrite = { id: string; type: number; allow: string; deny: string };
/** An overwrite as the platform sends it: allow_new and deny_new repeat the whole bit sets (spec 9). */
const sent = (o: Overwrite) => ({ ...o, allow_new: o.allow, deny_new: o.deny });
const overwritesOf = async (api: Awaited<ReturnType<typeof kit.setup>>["api"], channelId: string) =>
  ((await api.get(`/channels/${channelId}`)).body.permission_overwrites as Overwrite[]).toSorted((a, b) => a.id.localeCompare(b.id));

describe("PUT and DELETE /channels/{channel.id}/permissions/{overwrite.id}", () => {
  it("sets, changes and removes one overwrite, each with Channel Update and its audit entry", async () => {
    const { guild, text, api, owner } = await kit.setupWithChannels();
    const role = await kit.addRole(guild.id, 1, { name: "Helpers" });
    const path = `/channels/${text.id}/permissions/${role.id}`;

    expect((await api.put(path, { type: 0, allow: String(P.SendMessages), deny: String(P.AddReactions) })).status).toBe(204);
    expect(await overwritesOf(api, text.id)).toEqual([sent({ id: role.id, type: 0, allow: String(P.SendMessages), deny: String(P.AddReactions) })]);
    // The type may be left out when the id names a role, as in a channel edit.
    expect((await api.put(path, { allow: String(P.SendMessages | P.EmbedLinks) })).status).toBe(204);
    expect(await overwritesOf(api, text.id)).toEqual([sent({ id: role.id, type: 0, allow: String(P.SendMessages | P.EmbedLinks), deny: "0" })]);
    expect((await api.delete(path)).status).toBe(204);
    expect(await overwritesOf(api, text.id)).toEqual([]);
    // Removing it again is answered, and changes nothing.
    expect((await api.delete(path)).status).toBe(204);

    const updates = (await kit.eventsOf(guild.id, GatewayDispatchEvents.ChannelUpdate)).filter((event) => event.id === text.id);
    expect(updates.map((event) => event.permission_overwrites.length)).toEqual([1, 1, 0]);
    const options = { id: role.id, type: "0", role_name: "Helpers" };
    expect(await kit.auditOf(guild.id, AuditLogEvent.ChannelOverwriteCreate)).toMatchObject([{ userId: owner.user.id, targetId: text.id, options }]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.ChannelOverwriteUpdate)).toMatchObject([{ targetId: text.id, options }]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.ChannelOverwriteDelete)).toMatchObject([{ targetId: text.id, options }]);
  });

  it("takes MANAGE_ROLES, not MANAGE_CHANNELS, and only permissions the caller holds", async () => {
    const { guild, text } = await kit.setupWithChannels();
    const roleManager = await kit.addBotWithRole(guild.id, P.ViewChannel | P.ManageRoles | P.SendMessages, 3);
    const channelManager = await kit.addBotWithRole(guild.id, P.ViewChannel | P.ManageChannels, 2);
    const path = `/channels/${text.id}/permissions/${guild.id}`;

    expect((await roleManager.api.put(path, { type: 0, deny: String(P.SendMessages) })).status).toBe(204);
    expect((await roleManager.api.put(path, { type: 0, deny: String(P.BanMembers) })).body).toEqual(MISSING_PERMISSIONS);
    expect((await channelManager.api.put(path, { type: 0, deny: String(P.SendMessages) })).body).toEqual(MISSING_PERMISSIONS);
    expect((await channelManager.api.delete(path)).body).toEqual(MISSING_PERMISSIONS);
    expect(await overwritesOf(roleManager.api, text.id)).toEqual([sent({ id: guild.id, type: 0, allow: "0", deny: String(P.SendMessages) })]);
  });

  it("names the target: an unknown role (10011), someone not in the guild (10007), an id of neither without a type (50035)", async () => {
    const { guild, text, api } = await kit.setupWithChannels();
    const { user: stranger } = await makeUser(app.db);
    const member = await kit.addBot(guild.id);
    expect((await api.put(`/channels/${text.id}/permissions/${stranger.id}`, { type: 0 })).body.code).toBe(10011);
    expect((await api.put(`/channels/${text.id}/permissions/${stranger.id}`, { type: 1 })).body.code).toBe(10007);
    const untyped = await api.put(`/channels/${text.id}/permissions/${stranger.id}`, { allow: "0" });
    expect([untyped.body.code, untyped.body.errors?.type?._errors?.[0]?.code]).toEqual([50035, "BASE_TYPE_REQUIRED"]);
    expect((await api.put(`/channels/${text.id}/permissions/${member.user.id}`, { allow: String(P.AttachFiles) })).status).toBe(204);
    expect(await overwritesOf(api, text.id)).toEqual([sent({ id: member.user.id, type: 1, allow: String(P.AttachFiles), deny: "0" })]);
    expect((await api.put(`/channels/${text.id}/permissions/${member.user.id}`, { type: 2 })).status).toBe(400);
  });

  it("on a category, the channels synced with it follow", async () => {
    const { guild, api } = await kit.setupWithChannels();
    const category = (await api.post(`/guilds/${guild.id}/channels`, { name: "Staff", type: ChannelType.GuildCategory })).body;
    const child = (await api.post(`/guilds/${guild.id}/channels`, { name: "staff-chat", type: ChannelType.GuildText, parent_id: category.id })).body;
    expect((await api.put(`/channels/${category.id}/permissions/${guild.id}`, { type: 0, deny: String(P.ViewChannel) })).status).toBe(204);
    expect(await overwritesOf(api, child.id)).toEqual([sent({ id: guild.id, type: 0, allow: "0", deny: String(P.ViewChannel) })]);
  });
});
