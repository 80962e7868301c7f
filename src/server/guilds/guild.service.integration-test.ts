import { PermissionFlagsBits } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();

// 1x1 transparent PNG.
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
// 1x1 GIF with two frames (animated).
const ANIMATED_GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAIfkEAAAAAAAsAAAAAAEAAQAAAgJEAQA7";

describe("POST /guilds", () => {
  it("makes the caller owner, gives @everyone the guild id and creates default channels", async () => {
    const owner = await makeBot(app.db);
    const res = await app.as(bot(owner.token)).post("/guilds", { name: "  Tavern  " });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("Tavern");
    expect(res.body.owner_id).toBe(owner.user.id);
    expect(res.body.application_id).toBe(owner.application.id);
    expect(res.body.roles).toHaveLength(1);
    expect(res.body.roles[0]).toMatchObject({ id: res.body.id, name: "@everyone", position: 0 });
    const channels = await app.db.channel.findMany({ where: { guildId: res.body.id } });
    expect(channels.map((c) => c.name).sort()).toEqual(["General", "Text Channels", "Voice Channels", "general"]);
    expect(res.body.system_channel_id).toBe(channels.find((c) => c.name === "general")?.id);
    const events = await app.db.event.findMany({ where: { guildId: res.body.id } });
    expect(events.map((e) => e.type)).toEqual(["GUILD_CREATE"]);
  });

  it.each([
    ["a", "BASE_TYPE_BAD_LENGTH"],
    ["   a   ", "BASE_TYPE_BAD_LENGTH"],
    ["x".repeat(101), "BASE_TYPE_BAD_LENGTH"],
  ])("rejects the name %j with %s", async (name, code) => {
    const owner = await makeBot(app.db);
    const res = await app.as(bot(owner.token)).post("/guilds", { name });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 50035, message: "Invalid Form Body" });
    expect(res.body.errors.name._errors[0].code).toBe(code);
  });

  it("requires the name", async () => {
    const owner = await makeBot(app.db);
    const res = await app.as(bot(owner.token)).post("/guilds", {});
    expect(res.body.errors.name._errors[0]).toEqual({ code: "BASE_TYPE_REQUIRED", message: "This field is required" });
  });

  it("limits bots to creating guilds while in fewer than 10", async () => {
    const owner = await makeBot(app.db);
    for (let i = 0; i < 10; i++) await makeGuild(app.db, owner.actor);
    const res = await app.as(bot(owner.token)).post("/guilds", { name: "Eleventh" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(30001);
  });
});

describe("GET /guilds/{guild.id}", () => {
  it("returns the guild, with approximate counts only when asked", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const other = await makeUser(app.db);
    await addMember(app.db, guild.id, other.user.id);
    const plain = await app.as(bot(owner.token)).get(`/guilds/${guild.id}`);
    expect(plain.status).toBe(200);
    expect(plain.body.id).toBe(guild.id);
    expect(plain.body).not.toHaveProperty("approximate_member_count");
    const counted = await app.as(bot(owner.token)).get(`/guilds/${guild.id}`, { query: { with_counts: true } });
    expect(counted.body.approximate_member_count).toBe(2);
    expect(counted.body.approximate_presence_count).toBe(0);
  });

  it("answers 10004 for an unknown guild and 50001 to a non-member", async () => {
    const owner = await makeBot(app.db);
    const outsider = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    expect((await app.as(bot(owner.token)).get("/guilds/123456789012345678")).body).toEqual({ code: 10004, message: "Unknown Guild" });
    const res = await app.as(bot(outsider.token)).get(`/guilds/${guild.id}`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(50001);
  });

  it("answers 401 without credentials, with a bad token, and to a bearer token", async () => {
    const owner = await makeBot(app.db);
    const user = await makeUser(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    for (const auth of [undefined, "Bot not.valid", `Bot ${owner.token}x`, bearer(user.token)]) {
      const res = await app.as(auth).get(`/guilds/${guild.id}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 0, message: "401: Unauthorized" });
    }
  });

  it("rejects a with_counts value that is not a boolean", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const res = await app.as(bot(owner.token)).get(`/guilds/${guild.id}`, { query: { with_counts: "maybe" } });
    expect(res.status).toBe(400);
    expect(res.body.errors.with_counts).toBeDefined();
  });
});

describe("GET /guilds/{guild.id}/preview", () => {
  it("shows members a preview, and outsiders only when DISCOVERABLE", async () => {
    const owner = await makeBot(app.db);
    const outsider = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const own = await app.as(bot(owner.token)).get(`/guilds/${guild.id}/preview`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: guild.id, name: guild.name, approximate_member_count: 1 });
    expect((await app.as(bot(outsider.token)).get(`/guilds/${guild.id}/preview`)).body.code).toBe(10004);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.guild.update({ where: { id: guild.id }, data: { features: JSON.stringify(["COMMUNITY", "DISCOVERABLE"]) } }),
    );
    expect((await app.as(bot(outsider.token)).get(`/guilds/${guild.id}/preview`)).status).toBe(200);
  });
});

describe("PATCH /guilds/{guild.id}", () => {
  it("changes fields, records the audit reason and fires Guild Update", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const res = await app
      .as(bot(owner.token))
      .patch(
        `/guilds/${guild.id}`,
        { name: "Renamed", description: "A place", afk_timeout: 900, preferred_locale: "fr", system_channel_flags: 5, premium_progress_bar_enabled: true },
        { headers: { "X-Audit-Log-Reason": encodeURIComponent("tidy up: ünïcode") } },
      );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Renamed",
      description: "A place",
      afk_timeout: 900,
      preferred_locale: "fr",
      system_channel_flags: 5,
      premium_progress_bar_enabled: true,
    });
    const again = await app.as(bot(owner.token)).get(`/guilds/${guild.id}`);
    expect(again.body.name).toBe("Renamed");
    const events = await app.db.event.findMany({ where: { guildId: guild.id, type: "GUILD_UPDATE" } });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.data).name).toBe("Renamed");
    const log = await app.as(bot(owner.token)).get(`/guilds/${guild.id}/audit-logs`, { query: { action_type: 1 } });
    expect(log.body.audit_log_entries).toHaveLength(1);
    expect(log.body.audit_log_entries[0]).toMatchObject({ action_type: 1, user_id: owner.user.id, target_id: guild.id, reason: "tidy up: ünïcode" });
    expect(log.body.audit_log_entries[0].changes).toContainEqual({ key: "name", old_value: guild.name, new_value: "Renamed" });
    expect(log.body.users.map((u: { id: string }) => u.id)).toEqual([owner.user.id]);
  });

  it("null clears a nullable field; absent fields stay", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    await app.as(bot(owner.token)).patch(`/guilds/${guild.id}`, { description: "kept?" });
    const res = await app.as(bot(owner.token)).patch(`/guilds/${guild.id}`, { system_channel_id: null });
    expect(res.body.system_channel_id).toBeNull();
    expect(res.body.description).toBe("kept?");
  });

  it.each([
    [{ afk_timeout: 61 }, "afk_timeout", "BASE_TYPE_CHOICES"],
    [{ name: "x" }, "name", "BASE_TYPE_BAD_LENGTH"],
    [{ verification_level: 5 }, "verification_level", "NUMBER_TYPE_MAX"],
    [{ explicit_content_filter: "high" }, "explicit_content_filter", "NUMBER_TYPE_COERCE"],
    [{ icon: "not an image" }, "icon", "IMAGE_INVALID"],
    // The bytes decide, whatever type the URI declares (discord.js declares image/jpg for every Buffer): text is no image.
    [{ icon: "data:image/png;base64,bm90IGFuIGltYWdl" }, "icon", "IMAGE_INVALID"],
    [{ features: ["NOT_A_FEATURE"] }, "features", "BASE_TYPE_CHOICES"],
    [{ preferred_locale: "xx-XX" }, "preferred_locale", "BASE_TYPE_CHOICES"],
    [{ afk_channel_id: "12345" }, "afk_channel_id", "CHANNEL_INVALID"],
    [{ splash: PNG }, "splash", "GUILD_FEATURE_REQUIRED"],
    [{ banner: PNG }, "banner", "GUILD_FEATURE_REQUIRED"],
    [{ discovery_splash: PNG }, "discovery_splash", "GUILD_FEATURE_REQUIRED"],
    [{ icon: ANIMATED_GIF }, "icon", "GUILD_FEATURE_REQUIRED"],
  ])("rejects %j at %s with %s, changing nothing", async (body, field, code) => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const res = await app.as(bot(owner.token)).patch(`/guilds/${guild.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
    const leaf = field === "features" ? (res.body.errors.features[0] ?? res.body.errors.features) : res.body.errors[field];
    expect(leaf._errors[0].code).toBe(code);
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "GUILD_UPDATE" } })).toBe(0);
  });

  it("stores an icon as a hash and serves it from the CDN path", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const res = await app.as(bot(owner.token)).patch(`/guilds/${guild.id}`, { icon: PNG });
    expect(res.body.icon).toMatch(/^[0-9a-f]{32}$/);
    const image = await app.db.image.findUnique({ where: { path: `icons/${guild.id}/${res.body.icon}` } });
    expect(Buffer.from(image!.data).subarray(1, 4).toString()).toBe("PNG");
    const cleared = await app.as(bot(owner.token)).patch(`/guilds/${guild.id}`, { icon: null });
    expect(cleared.body.icon).toBeNull();
  });

  it("needs MANAGE_GUILD", async () => {
    const owner = await makeBot(app.db);
    const member = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    await addMember(app.db, guild.id, member.user.id);
    const res = await app.as(bot(member.token)).patch(`/guilds/${guild.id}`, { name: "Mine now" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 50013, message: "Missing Permissions" });
  });

  it("lets a MANAGE_GUILD member toggle INVITES_DISABLED but not COMMUNITY (needs ADMINISTRATOR)", async () => {
    const owner = await makeBot(app.db);
    const manager = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const role = await writeGuildState(app.db, guild.id, (tx) =>
      tx.role.create({
        data: { id: `${BigInt(guild.id) + 1n}`, guildId: guild.id, name: "Managers", position: 1, permissions: PermissionFlagsBits.ManageGuild },
      }),
    );
    await addMember(app.db, guild.id, manager.user.id, [role.id]);
    const paused = await app.as(bot(manager.token)).patch(`/guilds/${guild.id}`, { features: ["INVITES_DISABLED"] });
    expect(paused.status).toBe(200);
    expect(paused.body.features).toEqual(["INVITES_DISABLED"]);
    const community = await app.as(bot(manager.token)).patch(`/guilds/${guild.id}`, { features: ["INVITES_DISABLED", "COMMUNITY"] });
    expect(community.status).toBe(403);
    const prune = await app.as(bot(manager.token)).patch(`/guilds/${guild.id}`, { features: ["INVITES_DISABLED", "PRUNE_REQUIRES_ADMIN"] });
    expect(prune.status).toBe(403);
  });

  it("enables COMMUNITY only with its requirements, and keeps features that are not mutable", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    await writeGuildState(app.db, guild.id, (tx) => tx.guild.update({ where: { id: guild.id }, data: { features: JSON.stringify(["VERIFIED"]) } }));
    const api = app.as(bot(owner.token));
    const missing = await api.patch(`/guilds/${guild.id}`, { features: ["COMMUNITY"] });
    expect(missing.body.errors.features._errors[0].code).toBe("GUILD_COMMUNITY_REQUIREMENTS");
    const text = guild.system_channel_id!;
    const ok = await api.patch(`/guilds/${guild.id}`, {
      features: ["COMMUNITY"],
      rules_channel_id: text,
      public_updates_channel_id: text,
      verification_level: 1,
      explicit_content_filter: 2,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.features.sort()).toEqual(["COMMUNITY", "VERIFIED"]);
  });
});

describe("DELETE /guilds/{guild.id}", () => {
  it("is for the owner only", async () => {
    const owner = await makeBot(app.db);
    const admin = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const role = await writeGuildState(app.db, guild.id, (tx) =>
      tx.role.create({
        data: { id: `${BigInt(guild.id) + 1n}`, guildId: guild.id, name: "Admins", position: 1, permissions: PermissionFlagsBits.Administrator },
      }),
    );
    await addMember(app.db, guild.id, admin.user.id, [role.id]);
    expect((await app.as(bot(admin.token)).delete(`/guilds/${guild.id}`)).status).toBe(403);
    expect((await app.as(bot(owner.token)).delete(`/guilds/${guild.id}`)).status).toBe(204);
    expect(await app.db.guild.findUnique({ where: { id: guild.id } })).toBeNull();
    expect(await app.db.channel.count({ where: { guildId: guild.id } })).toBe(0);
  });
});

describe("GET /guilds/{guild.id}/audit-logs", () => {
  it("needs VIEW_AUDIT_LOG and validates its filters", async () => {
    const owner = await makeBot(app.db);
    const member = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    await addMember(app.db, guild.id, member.user.id);
    expect((await app.as(bot(member.token)).get(`/guilds/${guild.id}/audit-logs`)).status).toBe(403);
    const api = app.as(bot(owner.token));
    expect((await api.get(`/guilds/${guild.id}/audit-logs`, { query: { limit: 0 } })).body.errors.limit._errors[0].code).toBe("NUMBER_TYPE_MIN");
    expect((await api.get(`/guilds/${guild.id}/audit-logs`, { query: { limit: 101 } })).body.errors.limit._errors[0].code).toBe("NUMBER_TYPE_MAX");
    expect((await api.get(`/guilds/${guild.id}/audit-logs`, { query: { action_type: 9999 } })).status).toBe(400);
  });

  it("pages with before/after and filters by user", async () => {
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    const api = app.as(bot(owner.token));
    for (const name of ["One", "Two", "Three"]) await api.patch(`/guilds/${guild.id}`, { name });
    const all = await api.get(`/guilds/${guild.id}/audit-logs`);
    const ids = all.body.audit_log_entries.map((e: { id: string }) => e.id);
    expect(ids).toHaveLength(3);
    expect(all.body.audit_log_entries[0].changes).toContainEqual({ key: "name", old_value: "Two", new_value: "Three" });
    const before = await api.get(`/guilds/${guild.id}/audit-logs`, { query: { before: ids[0], limit: 1 } });
    expect(before.body.audit_log_entries.map((e: { id: string }) => e.id)).toEqual([ids[1]]);
    const after = await api.get(`/guilds/${guild.id}/audit-logs`, { query: { after: ids[2] } });
    expect(after.body.audit_log_entries.map((e: { id: string }) => e.id)).toEqual([ids[1], ids[0]]);
    const nobody = await api.get(`/guilds/${guild.id}/audit-logs`, { query: { user_id: "1" } });
    expect(nobody.body.audit_log_entries).toEqual([]);
  });
});
