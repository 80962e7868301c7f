import { GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addMember, makeBot, makeUser, writeGuildState } from "~/test/factories.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { memberKit, PNG } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const HOUR = 60 * 60 * 1000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

const { setupWithChannels: setup } = memberKit(app);

/** A bot member of the guild with only @everyone's permissions (VIEW_CHANNEL). */
async function plainMember(guildId: string) {
  const member = await makeBot(app.db);
  await addMember(app.db, guildId, member.user.id);
  await writeGuildState(app.db, guildId, (tx) => tx.role.update({ where: { id: guildId }, data: { permissions: P.ViewChannel } }));
  return app.as(bot(member.token));
}

describe("voice regions", () => {
  it("lists one table, with VIP regions only for VIP_REGIONS guilds", async () => {
    const { guild, api } = await setup();
    const open = await api.get(`/voice/regions`);
    expect(open.status).toBe(200);
    expect(open.body.some((r: { id: string }) => r.id.startsWith("vip-"))).toBe(false);
    expect((await api.get(`/guilds/${guild.id}/regions`)).body).toEqual(open.body);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.guild.update({ where: { id: guild.id }, data: { features: JSON.stringify([GuildFeature.VIPRegions]) } }),
    );
    const vip = await api.get(`/guilds/${guild.id}/regions`);
    expect(vip.body.filter((r: { id: string }) => r.id.startsWith("vip-")).length).toBeGreaterThan(0);
  });
});

describe("PUT /guilds/:guildId/incident-actions", () => {
  it("pauses invites up to 24 hours ahead, refuses joins meanwhile, and ends with null", async () => {
    const { guild, api, text } = await setup();
    const code = (await api.post(`/channels/${text.id}/invites`, {})).body.code as string;
    expect((await api.put(`/guilds/${guild.id}/incident-actions`, { invites_disabled_until: inHours(25) })).body.errors.invites_disabled_until).toBeDefined();
    const paused = await api.put(`/guilds/${guild.id}/incident-actions`, { invites_disabled_until: inHours(2) });
    expect(paused.status).toBe(200);
    expect(paused.body).toEqual({ invites_disabled_until: expect.any(String), dms_disabled_until: null });
    expect((await api.get(`/guilds/${guild.id}`)).body.incidents_data.invites_disabled_until).toBe(paused.body.invites_disabled_until);
    const joiner = await makeUser(app.db);
    expect((await app.as(bearer(joiner.token)).post(`/invites/${code}`)).status).toBe(403);

    expect((await api.put(`/guilds/${guild.id}/incident-actions`, { invites_disabled_until: null })).body.invites_disabled_until).toBeNull();
    expect((await app.as(bearer(joiner.token)).post(`/invites/${code}`)).status).toBe(200);
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "GUILD_UPDATE" } })).toBe(2);
  });

  describe("with the clock moved", () => {
    afterEach(() => vi.useRealTimers());

    it("takes exactly 24 hours ahead but not a second more, and admits joins again once the pause is over", async () => {
      const { guild, api, text } = await setup();
      const start = new Date("2026-12-01T12:00:00.000Z");
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(start);
      const at = (ms: number) => new Date(start.getTime() + ms).toISOString();
      for (const field of ["invites_disabled_until", "dms_disabled_until"]) {
        const over = await api.put(`/guilds/${guild.id}/incident-actions`, { [field]: at(24 * HOUR + 1000) });
        expect(over.status).toBe(400);
        expect(over.body.errors[field]._errors[0].message).toMatch(/24 hours/);
        expect((await api.put(`/guilds/${guild.id}/incident-actions`, { [field]: at(24 * HOUR) })).body[field]).toBe(at(24 * HOUR));
      }
      await api.put(`/guilds/${guild.id}/incident-actions`, { invites_disabled_until: at(2 * HOUR) });
      const code = (await api.post(`/channels/${text.id}/invites`, {})).body.code as string;
      const joiner = app.as(bearer((await makeUser(app.db)).token));
      expect((await joiner.post(`/invites/${code}`)).status).toBe(403);

      vi.setSystemTime(new Date(start.getTime() + 2 * HOUR + 1000));
      expect((await joiner.post(`/invites/${code}`)).status).toBe(200);
      // A limit counts from the moved clock too: 24 hours from now, not from the start.
      expect((await api.put(`/guilds/${guild.id}/incident-actions`, { dms_disabled_until: at(26 * HOUR) })).status).toBe(200);
    });
  });

  it("needs MANAGE_GUILD, and is not for another guild's bots", async () => {
    const { guild } = await setup();
    const member = await plainMember(guild.id);
    expect((await member.put(`/guilds/${guild.id}/incident-actions`, { dms_disabled_until: inHours(1) })).body.code).toBe(50013);
    const outsider = await setup();
    expect((await outsider.api.put(`/guilds/${guild.id}/incident-actions`, { dms_disabled_until: inHours(1) })).body.code).toBe(50001);
    expect((await outsider.api.get(`/guilds/${guild.id}/regions`)).body.code).toBe(50001);
    expect((await member.put(`/guilds/${guild.id}/incident-actions`, { dms_disabled_until: "tomorrow" })).body.errors.dms_disabled_until).toBeDefined();
  });
});

describe("the welcome screen", () => {
  it("is edited with MANAGE_GUILD, shown to members once enabled, and carried in invites", async () => {
    const { guild, api, text, voice } = await setup();
    const member = await plainMember(guild.id);
    expect((await member.get(`/guilds/${guild.id}/welcome-screen`)).body.code).toBe(50013);
    expect((await api.get(`/guilds/${guild.id}/welcome-screen`)).body).toEqual({ description: null, welcome_channels: [] });

    const bad = await api.patch(`/guilds/${guild.id}/welcome-screen`, { welcome_channels: [{ channel_id: voice.id, description: "Talk" }] });
    expect(bad.body.errors.welcome_channels["0"].channel_id).toBeDefined();
    const other = await setup();
    const foreign = await api.patch(`/guilds/${guild.id}/welcome-screen`, { welcome_channels: [{ channel_id: other.text.id, description: "Elsewhere" }] });
    expect(foreign.body.errors.welcome_channels["0"].channel_id).toBeDefined();
    expect((await other.api.patch(`/guilds/${guild.id}/welcome-screen`, { description: "Mine now" })).body.code).toBe(50001);
    const tooMany = await api.patch(`/guilds/${guild.id}/welcome-screen`, {
      welcome_channels: Array.from({ length: 6 }, () => ({ channel_id: text.id, description: "x" })),
    });
    expect(tooMany.body.code).toBe(50035);

    const saved = await api.patch(`/guilds/${guild.id}/welcome-screen`, {
      enabled: true,
      description: "Welcome in!",
      welcome_channels: [{ channel_id: text.id, description: "Say hello", emoji_name: "👋" }],
    });
    expect(saved.body).toEqual({
      description: "Welcome in!",
      welcome_channels: [{ channel_id: text.id, description: "Say hello", emoji_id: null, emoji_name: "👋" }],
    });
    expect((await api.get(`/guilds/${guild.id}`)).body.features).toContain(GuildFeature.WelcomeScreenEnabled);
    expect((await member.get(`/guilds/${guild.id}/welcome-screen`)).body.description).toBe("Welcome in!");

    const code = (await api.post(`/channels/${text.id}/invites`, {})).body.code as string;
    expect((await app.as().get(`/invites/${code}`)).body.guild.welcome_screen).toEqual(saved.body);
    await api.patch(`/guilds/${guild.id}/welcome-screen`, { enabled: false });
    expect((await app.as().get(`/invites/${code}`)).body.guild.welcome_screen).toBeUndefined();
  });

  it("takes a custom emoji of the guild only (50035 at emoji_id), shown by its stored name", async () => {
    const { guild, api, text } = await setup();
    const other = await setup();
    const theirs = (await other.api.post(`/guilds/${other.guild.id}/emojis`, { name: "theirs", image: PNG })).body.id as string;
    const wave = (await api.post(`/guilds/${guild.id}/emojis`, { name: "wave", image: PNG })).body.id as string;
    const screen = (emojiId: string) => ({
      welcome_channels: [{ channel_id: text.id, description: "Say hello", emoji_id: emojiId, emoji_name: "not_its_name" }],
    });

    for (const emojiId of [theirs, "123456789012345678"]) {
      expect((await api.patch(`/guilds/${guild.id}/welcome-screen`, screen(emojiId))).body).toEqual({
        code: 50035,
        message: "Invalid Form Body",
        errors: { welcome_channels: { 0: { emoji_id: { _errors: [{ code: "EMOJI_INVALID", message: "Invalid emoji" }] } } } },
      });
    }
    const saved = await api.patch(`/guilds/${guild.id}/welcome-screen`, screen(wave));
    expect(saved.body.welcome_channels).toEqual([{ channel_id: text.id, description: "Say hello", emoji_id: wave, emoji_name: "wave" }]);
    expect((await api.get(`/guilds/${guild.id}/welcome-screen`)).body).toEqual(saved.body);

    // Renamed, it is shown by its new name; deleted, the channel shows none.
    await api.patch(`/guilds/${guild.id}/emojis/${wave}`, { name: "hello" });
    expect((await api.get(`/guilds/${guild.id}/welcome-screen`)).body.welcome_channels[0]).toMatchObject({ emoji_id: wave, emoji_name: "hello" });
    await api.delete(`/guilds/${guild.id}/emojis/${wave}`);
    expect((await api.get(`/guilds/${guild.id}/welcome-screen`)).body.welcome_channels[0]).toMatchObject({ emoji_id: null, emoji_name: null });
  });
});
