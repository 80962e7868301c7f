import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();

/** A bot that owns a fresh guild, and its REST client. */
async function ownerSetup() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  return { owner, guild, api: app.as(bot(owner.token)) };
}

/** Another bot in the guild holding one role with `permissions` (plus @everyone's defaults). */
async function memberBot(guildId: string, permissions = 0n) {
  const member = await makeBot(app.db);
  const role = await writeGuildState(app.db, guildId, (tx) => tx.role.create({ data: { id: newId(), guildId, name: "Helpers", permissions, position: 1 } }));
  await addMember(app.db, guildId, member.user.id, [role.id]);
  return { ...member, role, api: app.as(bot(member.token)) };
}

async function eventsOf(guildId: string, type: string) {
  const rows = await app.db.event.findMany({ where: { guildId, type }, orderBy: { seq: "asc" } });
  return rows.map((row) => JSON.parse(row.data) as Record<string, any>);
}

async function auditOf(guildId: string, actionType: number) {
  return app.db.auditLogEntry.findMany({ where: { guildId, actionType }, orderBy: { id: "asc" } });
}

function fieldError(body: any, ...path: (string | number)[]): string | undefined {
  let node = body?.errors;
  for (const key of path) node = node?.[key];
  return node?._errors?.[0]?.code;
}

describe("GET /guilds/{guild.id}/channels", () => {
  it("lists the guild's channels in order with the fields of each type", async () => {
    const { guild, api } = await ownerSetup();
    const res = await api.get(`/guilds/${guild.id}/channels`);
    expect(res.status).toBe(200);
    expect(res.body.map((c: any) => [c.type, c.name])).toEqual([
      [ChannelType.GuildCategory, "Text Channels"],
      [ChannelType.GuildText, "general"],
      [ChannelType.GuildVoice, "General"],
      [ChannelType.GuildCategory, "Voice Channels"],
    ]);
    const [category, text, voice] = res.body;
    expect(category).toEqual({
      id: expect.any(String),
      type: 4,
      guild_id: guild.id,
      name: "Text Channels",
      position: 0,
      flags: 0,
      parent_id: null,
      permission_overwrites: [],
    });
    expect(text).toMatchObject({ guild_id: guild.id, parent_id: category.id, topic: null, nsfw: false, rate_limit_per_user: 0, last_message_id: null });
    expect(text).not.toHaveProperty("bitrate");
    expect(voice).toMatchObject({ bitrate: 64000, user_limit: 0, rtc_region: null, rate_limit_per_user: 0 });
    expect(voice).not.toHaveProperty("topic");
  });

  it("hides channels the caller cannot view, but not from the owner", async () => {
    const { guild, api } = await ownerSetup();
    const created = await api.post(`/guilds/${guild.id}/channels`, {
      name: "staff",
      permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.ViewChannel) }],
    });
    expect(created.status).toBe(200);
    const member = await memberBot(guild.id);

    const seen = await member.api.get(`/guilds/${guild.id}/channels`);
    expect(seen.status).toBe(200);
    expect(seen.body).toHaveLength(4);
    expect(seen.body.map((c: any) => c.id)).not.toContain(created.body.id);
    const owners = await api.get(`/guilds/${guild.id}/channels`);
    expect(owners.body.map((c: any) => c.id)).toContain(created.body.id);

    const direct = await member.api.get(`/channels/${created.body.id}`);
    expect(direct.status).toBe(403);
    expect(direct.body.code).toBe(50001);
  });

  it("refuses outsiders, unknown guilds and the wrong credentials", async () => {
    const { guild } = await ownerSetup();
    const outsider = await makeBot(app.db);
    const asOutsider = await app.as(bot(outsider.token)).get(`/guilds/${guild.id}/channels`);
    expect([asOutsider.status, asOutsider.body.code]).toEqual([403, 50001]);
    const unknown = await app.as(bot(outsider.token)).get(`/guilds/${newId()}/channels`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 10004]);
    expect((await app.as().get(`/guilds/${guild.id}/channels`)).status).toBe(401);
    const user = await makeUser(app.db);
    expect((await app.as(bearer(user.token)).get(`/guilds/${guild.id}/channels`)).status).toBe(401);
  });
});

describe("POST /guilds/{guild.id}/channels", () => {
  it("creates a text channel, fires Channel Create and records the audit reason", async () => {
    const { owner, guild, api } = await ownerSetup();
    const categories = (await api.get(`/guilds/${guild.id}/channels`)).body.filter((c: any) => c.type === ChannelType.GuildCategory);
    const res = await api.post(
      `/guilds/${guild.id}/channels`,
      {
        name: "announcements-ish",
        topic: "Read me",
        rate_limit_per_user: 30,
        nsfw: true,
        parent_id: categories[0].id,
        bitrate: 96000,
        default_auto_archive_duration: 1440,
      },
      { headers: { "X-Audit-Log-Reason": encodeURIComponent("Setting up: phase 1 ✓") } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      type: ChannelType.GuildText,
      guild_id: guild.id,
      name: "announcements-ish",
      position: 1,
      flags: 0,
      parent_id: categories[0].id,
      permission_overwrites: [],
      last_message_id: null,
      nsfw: true,
      rate_limit_per_user: 30,
      topic: "Read me",
      default_auto_archive_duration: 1440,
    });

    const events = await eventsOf(guild.id, GatewayDispatchEvents.ChannelCreate);
    expect(events).toEqual([res.body]);
    const [entry] = await auditOf(guild.id, AuditLogEvent.ChannelCreate);
    expect(entry).toMatchObject({ userId: owner.user.id, targetId: res.body.id, reason: "Setting up: phase 1 ✓" });
    expect(JSON.parse(entry!.changes!)).toContainEqual({ key: "name", new_value: "announcements-ish" });
    expect((await api.get(`/channels/${res.body.id}`)).body).toEqual(res.body);
  });

  it("creates voice, stage, category and forum channels with their own fields", async () => {
    const { guild, api } = await ownerSetup();
    const voice = await api.post(`/guilds/${guild.id}/channels`, {
      name: "Lounge",
      type: 2,
      topic: "ignored",
      user_limit: 10,
      rtc_region: "rotterdam",
      video_quality_mode: 2,
    });
    expect(voice.status).toBe(200);
    expect(voice.body).toMatchObject({ type: 2, bitrate: 64000, user_limit: 10, rtc_region: "rotterdam", video_quality_mode: 2, parent_id: null });
    expect(voice.body).not.toHaveProperty("topic");

    const stage = await api.post(`/guilds/${guild.id}/channels`, { name: "Stage", type: 13, bitrate: 64000, user_limit: 10000 });
    expect(stage.status).toBe(200);
    expect(stage.body).toMatchObject({ type: 13, bitrate: 64000, user_limit: 10000 });

    const category = await api.post(`/guilds/${guild.id}/channels`, { name: "Archive", type: 4, parent_id: null, topic: "ignored" });
    expect(category.status).toBe(200);
    expect(category.body).toMatchObject({ type: 4, position: 2 });
    expect(category.body).not.toHaveProperty("topic");

    const forum = await api.post(`/guilds/${guild.id}/channels`, {
      name: "help",
      type: 15,
      topic: "g".repeat(1024),
      available_tags: [
        { name: "solved", moderated: true },
        { name: "bug", emoji_name: "🐛" },
      ],
      default_reaction_emoji: { emoji_name: "👍" },
      default_sort_order: 1,
      default_forum_layout: 2,
      flags: 16 | 2,
    });
    expect(forum.status).toBe(200);
    expect(forum.body).toMatchObject({
      type: 15,
      available_tags: [
        { id: expect.any(String), name: "solved", moderated: true, emoji_id: null, emoji_name: null },
        { id: expect.any(String), name: "bug", moderated: false, emoji_id: null, emoji_name: "🐛" },
      ],
      default_reaction_emoji: { emoji_id: null, emoji_name: "👍" },
      default_sort_order: 1,
      default_forum_layout: 2,
      // REQUIRE_TAG is settable on forums; PINNED is not.
      flags: 16,
    });
  });

  it("enforces name, topic and slowmode limits", async () => {
    const { guild, api } = await ownerSetup();
    const path = `/guilds/${guild.id}/channels`;
    const empty = await api.post(path, { name: "" });
    expect([empty.status, empty.body.code, fieldError(empty.body, "name")]).toEqual([400, 50035, "BASE_TYPE_BAD_LENGTH"]);
    expect(fieldError((await api.post(path, { name: "n".repeat(101) })).body, "name")).toBe("BASE_TYPE_BAD_LENGTH");
    expect((await api.post(path, { name: "n".repeat(100) })).status).toBe(200);

    const topic = await api.post(path, { name: "t", topic: "x".repeat(1025) });
    expect([topic.status, fieldError(topic.body, "topic")]).toEqual([400, "BASE_TYPE_BAD_LENGTH"]);
    expect((await api.post(path, { name: "t", topic: "x".repeat(1024) })).status).toBe(200);

    const slow = await api.post(path, { name: "s", rate_limit_per_user: 21601 });
    expect([slow.status, fieldError(slow.body, "rate_limit_per_user")]).toEqual([400, "NUMBER_TYPE_MAX"]);
    expect((await api.post(path, { name: "s", rate_limit_per_user: 21600 })).body.rate_limit_per_user).toBe(21600);
  });

  it("enforces bitrate by boost tier and user limits by type", async () => {
    const { guild, api } = await ownerSetup();
    const path = `/guilds/${guild.id}/channels`;
    const low = await api.post(path, { name: "v", type: 2, bitrate: 7999 });
    expect([low.status, fieldError(low.body, "bitrate")]).toEqual([400, "NUMBER_TYPE_MIN"]);
    const high = await api.post(path, { name: "v", type: 2, bitrate: 96001 });
    expect([high.status, fieldError(high.body, "bitrate")]).toEqual([400, "NUMBER_TYPE_MAX"]);
    expect((await api.post(path, { name: "v", type: 2, bitrate: 96000 })).status).toBe(200);

    await writeGuildState(app.db, guild.id, (tx) => tx.guild.update({ where: { id: guild.id }, data: { premiumTier: 2 } }));
    expect((await api.post(path, { name: "v", type: 2, bitrate: 256000 })).status).toBe(200);
    expect((await api.post(path, { name: "v", type: 2, bitrate: 256001 })).status).toBe(400);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.guild.update({ where: { id: guild.id }, data: { premiumTier: 0, features: JSON.stringify(["VIP_REGIONS"]) } }),
    );
    expect((await api.post(path, { name: "v", type: 2, bitrate: 384000 })).status).toBe(200);

    const stage = await api.post(path, { name: "s", type: 13, bitrate: 64001 });
    expect([stage.status, fieldError(stage.body, "bitrate")]).toEqual([400, "NUMBER_TYPE_MAX"]);

    const voiceLimit = await api.post(path, { name: "v", type: 2, user_limit: 100 });
    expect([voiceLimit.status, fieldError(voiceLimit.body, "user_limit")]).toEqual([400, "NUMBER_TYPE_MAX"]);
    expect((await api.post(path, { name: "v", type: 2, user_limit: 99 })).status).toBe(200);
    expect((await api.post(path, { name: "s", type: 13, user_limit: 10001 })).status).toBe(400);
  });

  it("accepts guild channel types only; announcements need NEWS", async () => {
    const { guild, api } = await ownerSetup();
    const path = `/guilds/${guild.id}/channels`;
    for (const type of [ChannelType.PublicThread, ChannelType.DM, ChannelType.GroupDM]) {
      const res = await api.post(path, { name: "x", type });
      expect([res.status, fieldError(res.body, "type")]).toEqual([400, "BASE_TYPE_CHOICES"]);
    }
    const news = await api.post(path, { name: "news", type: ChannelType.GuildAnnouncement });
    expect([news.status, fieldError(news.body, "type")]).toEqual([400, "BASE_TYPE_CHOICES"]);
    await writeGuildState(app.db, guild.id, (tx) => tx.guild.update({ where: { id: guild.id }, data: { features: JSON.stringify(["NEWS"]) } }));
    const allowed = await api.post(path, { name: "news", type: ChannelType.GuildAnnouncement });
    expect(allowed.status).toBe(200);
    expect(allowed.body.type).toBe(ChannelType.GuildAnnouncement);
  });

  it("puts channels only under a category of the same guild", async () => {
    const { guild, api } = await ownerSetup();
    const other = await ownerSetup();
    const list = (await api.get(`/guilds/${guild.id}/channels`)).body;
    const text = list.find((c: any) => c.type === ChannelType.GuildText);
    const foreign = (await other.api.get(`/guilds/${other.guild.id}/channels`)).body.find((c: any) => c.type === ChannelType.GuildCategory);
    for (const parent_id of [text.id, foreign.id, newId()]) {
      const res = await api.post(`/guilds/${guild.id}/channels`, { name: "x", parent_id });
      expect([res.status, fieldError(res.body, "parent_id")]).toEqual([400, "CHANNEL_PARENT_INVALID"]);
    }
  });

  it("stores overwrites with omitted or null values as 0 and checks their targets", async () => {
    const { guild, api } = await ownerSetup();
    const member = await memberBot(guild.id);
    const res = await api.post(`/guilds/${guild.id}/channels`, {
      name: "private",
      permission_overwrites: [
        { id: guild.id, type: 0, deny: String(P.ViewChannel) },
        { id: member.user.id, allow: String(P.ViewChannel | P.SendMessages), deny: null },
        { id: member.role.id },
      ],
    });
    expect(res.status).toBe(200);
    // allow_new and deny_new repeat the whole bit sets beside allow and deny (spec 9).
    const seeAndSend = String(P.ViewChannel | P.SendMessages);
    expect(res.body.permission_overwrites).toEqual([
      { id: guild.id, type: 0, allow: "0", deny: String(P.ViewChannel), allow_new: "0", deny_new: String(P.ViewChannel) },
      { id: member.role.id, type: 0, allow: "0", deny: "0", allow_new: "0", deny_new: "0" },
      { id: member.user.id, type: 1, allow: seeAndSend, deny: "0", allow_new: seeAndSend, deny_new: "0" },
    ]);
    // The member overwrite lets the member see what @everyone cannot.
    expect((await member.api.get(`/channels/${res.body.id}`)).status).toBe(200);

    const unknownRole = await api.post(`/guilds/${guild.id}/channels`, { name: "x", permission_overwrites: [{ id: newId(), type: 0 }] });
    expect([unknownRole.status, unknownRole.body.code]).toEqual([404, 10011]);
    const outsider = await makeBot(app.db);
    const notMember = await api.post(`/guilds/${guild.id}/channels`, { name: "x", permission_overwrites: [{ id: outsider.user.id, type: 1 }] });
    expect([notMember.status, notMember.body.code]).toEqual([404, 10007]);
  });

  it("lets callers allow or deny only permissions they hold, and MANAGE_ROLES only as administrators", async () => {
    const { guild, api } = await ownerSetup();
    const manager = await memberBot(guild.id, P.ManageChannels | P.ManageRoles);
    const path = `/guilds/${guild.id}/channels`;

    const held = await manager.api.post(path, { name: "ok", permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.SendMessages) }] });
    expect(held.status).toBe(200);
    const lacking = await manager.api.post(path, { name: "no", permission_overwrites: [{ id: guild.id, type: 0, allow: String(P.BanMembers) }] });
    expect([lacking.status, lacking.body.code]).toEqual([403, 50013]);
    const manageRoles = await manager.api.post(path, { name: "no", permission_overwrites: [{ id: manager.role.id, type: 0, allow: String(P.ManageRoles) }] });
    expect([manageRoles.status, manageRoles.body.code]).toEqual([403, 50013]);

    const byOwner = await api.post(path, {
      name: "yes",
      permission_overwrites: [{ id: manager.role.id, type: 0, allow: String(P.ManageRoles | P.BanMembers) }],
    });
    expect(byOwner.status).toBe(200);
  });

  it("starts a channel synced with its category unless it brings overwrites", async () => {
    const { guild, api } = await ownerSetup();
    const category = await api.post(`/guilds/${guild.id}/channels`, {
      name: "Staff",
      type: 4,
      permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.ViewChannel) }],
    });
    const synced = await api.post(`/guilds/${guild.id}/channels`, { name: "mods", parent_id: category.body.id });
    expect(synced.body.permission_overwrites).toEqual(category.body.permission_overwrites);
    const own = await api.post(`/guilds/${guild.id}/channels`, { name: "open", parent_id: category.body.id, permission_overwrites: [] });
    expect(own.body.permission_overwrites).toEqual([]);
  });

  it("needs MANAGE_CHANNELS", async () => {
    const { guild } = await ownerSetup();
    const member = await memberBot(guild.id, P.SendMessages);
    const res = await member.api.post(`/guilds/${guild.id}/channels`, { name: "nope" });
    expect([res.status, res.body.code]).toEqual([403, 50013]);
    expect(await eventsOf(guild.id, GatewayDispatchEvents.ChannelCreate)).toEqual([]);
  });

  it("stops at 500 channels", async () => {
    const { guild, api } = await ownerSetup();
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.channel.createMany({ data: Array.from({ length: 496 }, (_, i) => ({ id: newId(), guildId: guild.id, type: 0, name: `c${i}`, position: i })) }),
    );
    const res = await api.post(`/guilds/${guild.id}/channels`, { name: "one-too-many" });
    expect([res.status, res.body.code]).toEqual([400, 30013]);
  });
});

describe("PATCH /guilds/{guild.id}/channels", () => {
  it("moves and reorders channels, one Channel Update per changed channel", async () => {
    const { guild, api } = await ownerSetup();
    const path = `/guilds/${guild.id}/channels`;
    const list = (await api.get(path)).body;
    const [textCategory, general, voice, voiceCategory] = list;
    await api.patch(`/channels/${voiceCategory.id}`, { permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.SendMessages) }] });
    const eventsBefore = (await eventsOf(guild.id, GatewayDispatchEvents.ChannelUpdate)).length;

    const res = await api.patch(
      path,
      [
        { id: general.id, position: 5, parent_id: voiceCategory.id, lock_permissions: true },
        { id: voice.id, parent_id: null },
        { id: textCategory.id, position: 0 },
      ],
      { headers: { "X-Audit-Log-Reason": "tidy%20up" } },
    );
    expect(res.status).toBe(204);

    const updates = (await eventsOf(guild.id, GatewayDispatchEvents.ChannelUpdate)).slice(eventsBefore);
    expect(updates.map((c) => c.id)).toEqual([general.id, voice.id]);
    expect(updates[0]).toMatchObject({
      position: 5,
      parent_id: voiceCategory.id,
      permission_overwrites: [{ id: guild.id, type: 0, allow: "0", deny: String(P.SendMessages) }],
    });
    expect(updates[1]).toMatchObject({ parent_id: null, position: voice.position });
    const after = (await api.get(`/channels/${general.id}`)).body;
    expect(after).toEqual(updates[0]);

    const audits = await auditOf(guild.id, AuditLogEvent.ChannelUpdate);
    const moved = audits.find((a) => a.targetId === general.id);
    expect(moved?.reason).toBe("tidy up");
    expect(JSON.parse(moved!.changes!)).toEqual([
      { key: "position", old_value: 0, new_value: 5 },
      { key: "parent_id", old_value: textCategory.id, new_value: voiceCategory.id },
    ]);
    const overwrite = await auditOf(guild.id, AuditLogEvent.ChannelOverwriteCreate);
    expect(overwrite.map((a) => a.targetId)).toContain(general.id);
  });

  it("checks the rows and the caller", async () => {
    const { guild, api } = await ownerSetup();
    const path = `/guilds/${guild.id}/channels`;
    const [, general] = (await api.get(path)).body;
    const unknown = await api.patch(path, [{ id: newId(), position: 1 }]);
    expect([unknown.status, fieldError(unknown.body, 0, "id")]).toEqual([400, "CHANNEL_INVALID"]);
    const badParent = await api.patch(path, [{ id: general.id, parent_id: general.id }]);
    expect([badParent.status, fieldError(badParent.body, 0, "parent_id")]).toEqual([400, "CHANNEL_PARENT_INVALID"]);
    const member = await memberBot(guild.id);
    const denied = await member.api.patch(path, [{ id: general.id, position: 3 }]);
    expect([denied.status, denied.body.code]).toEqual([403, 50013]);
    expect((await app.as().patch(path, [])).status).toBe(401);
  });

  it("takes at most as many rows as a guild can have channels", async () => {
    const { guild, api } = await ownerSetup();
    const [, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    const res = await api.patch(
      `/guilds/${guild.id}/channels`,
      Array.from({ length: 501 }, () => ({ id: general.id, position: 1 })),
    );
    expect([res.status, res.body.code, res.body.errors?._errors?.[0]?.code]).toEqual([400, 50035, "BASE_TYPE_MAX_LENGTH"]);
    expect((await api.get(`/channels/${general.id}`)).body.position).toBe(general.position);
  });

  it("syncs overwrites only for callers who could change them on the channel itself", async () => {
    const { guild, api } = await ownerSetup();
    const path = `/guilds/${guild.id}/channels`;
    const hidden = [{ id: guild.id, type: 0, allow: "0", deny: String(P.ViewChannel) }];
    const secret = (await api.post(path, { name: "secret", permission_overwrites: hidden })).body;
    const open = (await api.post(path, { name: "Open", type: ChannelType.GuildCategory })).body;
    const sync = [{ id: secret.id, parent_id: open.id, lock_permissions: true }];

    const channelsOnly = await memberBot(guild.id, P.ManageChannels);
    const blind = await channelsOnly.api.patch(path, sync);
    expect([blind.status, blind.body.code]).toEqual([403, 50001]);
    const rolesToo = await memberBot(guild.id, P.ManageChannels | P.ManageRoles);
    const stillBlind = await rolesToo.api.patch(path, sync);
    expect([stillBlind.status, stillBlind.body.code]).toEqual([403, 50001]);

    // Seeing the channel is not enough without MANAGE_ROLES in it.
    await api.patch(`/channels/${secret.id}`, { permission_overwrites: [...hidden, { id: channelsOnly.role.id, type: 0, allow: String(P.ViewChannel) }] });
    const noRoles = await channelsOnly.api.patch(path, sync);
    expect([noRoles.status, noRoles.body.code]).toEqual([403, 50013]);
    expect((await api.get(`/channels/${secret.id}`)).body).toMatchObject({
      parent_id: null,
      permission_overwrites: expect.arrayContaining(hidden.map((overwrite) => expect.objectContaining(overwrite))),
    });

    const { user } = await makeUser(app.db);
    await addMember(app.db, guild.id, user.id, [channelsOnly.role.id]);
    const dashboard = createCaller({ db: app.db, userId: user.id });
    await expect(dashboard.channel.reorder({ guildId: guild.id, positions: sync })).rejects.toMatchObject({ cause: { code: 50013 } });

    const allowed = await memberBot(guild.id, P.ManageChannels | P.ManageRoles | P.ViewChannel);
    await api.patch(`/channels/${secret.id}`, { permission_overwrites: [...hidden, { id: allowed.role.id, type: 0, allow: String(P.ViewChannel) }] });
    expect((await allowed.api.patch(path, sync)).status).toBe(204);
    expect((await api.get(`/channels/${secret.id}`)).body).toMatchObject({ parent_id: open.id, permission_overwrites: [] });
  });
});

describe("GET /channels/{channel.id}", () => {
  it("returns the channel to members and refuses the rest", async () => {
    const { guild, api } = await ownerSetup();
    const [, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    const res = await api.get(`/channels/${general.id}`);
    expect([res.status, res.body.id, res.body.name]).toEqual([200, general.id, "general"]);

    const unknown = await api.get(`/channels/${newId()}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 10003]);
    const outsider = await makeBot(app.db);
    const hidden = await app.as(bot(outsider.token)).get(`/channels/${general.id}`);
    expect([hidden.status, hidden.body.code]).toEqual([403, 50001]);
    const user = await makeUser(app.db);
    expect((await app.as(bearer(user.token)).get(`/channels/${general.id}`)).status).toBe(401);
  });
});

describe("PATCH /channels/{channel.id}", () => {
  it("modifies the channel, fires Channel Update and audits the changes", async () => {
    const { guild, api } = await ownerSetup();
    const [, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    const res = await api.patch(
      `/channels/${general.id}`,
      { name: "lobby", topic: "Say hi", rate_limit_per_user: 5, bitrate: 8000, parent_id: null },
      { headers: { "X-Audit-Log-Reason": encodeURIComponent("rename ü") } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: general.id, name: "lobby", topic: "Say hi", rate_limit_per_user: 5, parent_id: null });
    expect(res.body).not.toHaveProperty("bitrate");
    expect((await eventsOf(guild.id, GatewayDispatchEvents.ChannelUpdate)).at(-1)).toEqual(res.body);

    const [entry] = await auditOf(guild.id, AuditLogEvent.ChannelUpdate);
    expect(entry?.reason).toBe("rename ü");
    expect(JSON.parse(entry!.changes!)).toEqual([
      { key: "name", old_value: "general", new_value: "lobby" },
      { key: "topic", new_value: "Say hi" },
      { key: "rate_limit_per_user", old_value: 0, new_value: 5 },
      { key: "parent_id", old_value: general.parent_id },
    ]);

    const cleared = await api.patch(`/channels/${general.id}`, { topic: null });
    expect(cleared.body).toMatchObject({ topic: null, name: "lobby", rate_limit_per_user: 5 });
  });

  it("applies the same limits as create, per the channel's type", async () => {
    const { guild, api } = await ownerSetup();
    const [, general, voice] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    expect(fieldError((await api.patch(`/channels/${general.id}`, { name: "" })).body, "name")).toBe("BASE_TYPE_BAD_LENGTH");
    expect(fieldError((await api.patch(`/channels/${general.id}`, { topic: "x".repeat(1025) })).body, "topic")).toBe("BASE_TYPE_BAD_LENGTH");
    expect(fieldError((await api.patch(`/channels/${voice.id}`, { bitrate: 128000 })).body, "bitrate")).toBe("NUMBER_TYPE_MAX");
    expect(fieldError((await api.patch(`/channels/${voice.id}`, { user_limit: 100 })).body, "user_limit")).toBe("NUMBER_TYPE_MAX");
    expect((await api.patch(`/channels/${voice.id}`, { bitrate: 96000, user_limit: 99 })).body).toMatchObject({ bitrate: 96000, user_limit: 99 });
  });

  it("changes type only between text and announcement, in guilds with NEWS", async () => {
    const { guild, api } = await ownerSetup();
    const [, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    expect(fieldError((await api.patch(`/channels/${general.id}`, { type: 2 })).body, "type")).toBe("BASE_TYPE_CHOICES");
    expect(fieldError((await api.patch(`/channels/${general.id}`, { type: 5 })).body, "type")).toBe("BASE_TYPE_CHOICES");
    await writeGuildState(app.db, guild.id, (tx) => tx.guild.update({ where: { id: guild.id }, data: { features: JSON.stringify(["NEWS"]) } }));
    expect((await api.patch(`/channels/${general.id}`, { type: 5 })).body.type).toBe(5);
    expect((await api.patch(`/channels/${general.id}`, { type: 0 })).body.type).toBe(0);
  });

  it("needs MANAGE_CHANNELS, and MANAGE_ROLES for overwrites", async () => {
    const { guild, api } = await ownerSetup();
    const [, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    const plain = await memberBot(guild.id);
    const noManage = await plain.api.patch(`/channels/${general.id}`, { name: "x" });
    expect([noManage.status, noManage.body.code]).toEqual([403, 50013]);

    const manager = await memberBot(guild.id, P.ManageChannels);
    expect((await manager.api.patch(`/channels/${general.id}`, { name: "renamed" })).status).toBe(200);
    const overwrites = await manager.api.patch(`/channels/${general.id}`, { permission_overwrites: [] });
    expect([overwrites.status, overwrites.body.code]).toEqual([403, 50013]);

    const unknown = await api.patch(`/channels/${newId()}`, { name: "x" });
    expect([unknown.status, unknown.body.code]).toEqual([404, 10003]);
  });

  it("audits overwrite changes and carries them to synced children of a category", async () => {
    const { guild, api } = await ownerSetup();
    const [textCategory, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    const deny = String(P.ViewChannel);
    const res = await api.patch(`/channels/${textCategory.id}`, { permission_overwrites: [{ id: guild.id, type: 0, deny }] });
    expect(res.status).toBe(200);
    expect((await api.get(`/channels/${general.id}`)).body.permission_overwrites).toEqual([
      { id: guild.id, type: 0, allow: "0", deny, allow_new: "0", deny_new: deny },
    ]);

    const [created] = await auditOf(guild.id, AuditLogEvent.ChannelOverwriteCreate);
    expect(created?.targetId).toBe(textCategory.id);
    expect(JSON.parse(created!.options!)).toEqual({ id: guild.id, type: "0", role_name: "@everyone" });
    expect(JSON.parse(created!.changes!)).toEqual([
      { key: "id", new_value: guild.id },
      { key: "type", new_value: 0 },
      { key: "allow", new_value: "0" },
      { key: "deny", new_value: deny },
    ]);
    await api.patch(`/channels/${textCategory.id}`, { permission_overwrites: null });
    expect(await auditOf(guild.id, AuditLogEvent.ChannelOverwriteDelete)).toHaveLength(1);
  });
});

describe("DELETE /channels/{channel.id}", () => {
  it("returns the deleted channel, clears guild settings naming it and fires Channel Delete", async () => {
    const { guild, api } = await ownerSetup();
    const [, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    expect(guild.system_channel_id).toBe(general.id);
    const res = await api.delete(`/channels/${general.id}`, { headers: { "X-Audit-Log-Reason": "cleanup" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(general);
    expect((await api.get(`/channels/${general.id}`)).body.code).toBe(10003);
    expect((await api.get(`/guilds/${guild.id}`)).body.system_channel_id).toBeNull();
    expect(await eventsOf(guild.id, GatewayDispatchEvents.ChannelDelete)).toEqual([general]);
    expect((await eventsOf(guild.id, GatewayDispatchEvents.GuildUpdate)).at(-1)?.system_channel_id).toBeNull();
    const [entry] = await auditOf(guild.id, AuditLogEvent.ChannelDelete);
    expect(entry).toMatchObject({ targetId: general.id, reason: "cleanup" });
  });

  it("detaches a category's children", async () => {
    const { guild, api } = await ownerSetup();
    const [textCategory, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    expect((await api.delete(`/channels/${textCategory.id}`)).status).toBe(200);
    expect((await api.get(`/channels/${general.id}`)).body.parent_id).toBeNull();
    const updates = await eventsOf(guild.id, GatewayDispatchEvents.ChannelUpdate);
    expect(updates).toEqual([expect.objectContaining({ id: general.id, parent_id: null })]);
  });

  it("keeps the rules channel of a Community guild, and needs MANAGE_CHANNELS", async () => {
    const { guild, api } = await ownerSetup();
    const [, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.guild.update({ where: { id: guild.id }, data: { features: JSON.stringify(["COMMUNITY"]), rulesChannelId: general.id } }),
    );
    const res = await api.delete(`/channels/${general.id}`);
    expect([res.status, res.body.code]).toEqual([400, 50074]);

    const member = await memberBot(guild.id);
    const denied = await member.api.delete(`/channels/${general.id}`);
    expect([denied.status, denied.body.code]).toEqual([403, 50013]);
  });
});

describe("tRPC channel router", () => {
  it("applies the same rules to the dashboard user", async () => {
    const { guild } = await ownerSetup();
    const { user } = await makeUser(app.db);
    await addMember(app.db, guild.id, user.id);
    const caller = createCaller({ db: app.db, userId: user.id });

    const channels = await caller.channel.list({ guildId: guild.id });
    expect(channels.map((c) => c.name)).toContain("general");
    await expect(caller.channel.create({ guildId: guild.id, body: { name: "from-dashboard" } })).rejects.toMatchObject({
      code: "FORBIDDEN",
      cause: { code: 50013 },
    });

    const ownerCaller = createCaller({ db: app.db, userId: guild.owner_id });
    await expect(ownerCaller.channel.create({ guildId: guild.id, body: { name: "t", topic: "x".repeat(1025) } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const created = await ownerCaller.channel.create({ guildId: guild.id, body: { name: "from-dashboard" } });
    await ownerCaller.channel.reorder({ guildId: guild.id, positions: [{ id: created.id, position: 9 }] });
    expect((await caller.channel.get({ channelId: created.id })).position).toBe(9);
  });
});
