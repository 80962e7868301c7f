import { ChannelType, GatewayDispatchEvents } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { makeBot, makeGuild } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();

async function ownerSetup() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  return { guild, api: app.as(bot(owner.token)) };
}

describe("channel names as the platform saves them", () => {
  it("creates text-like channels under lower-case, dashed names; voice, stage and categories as typed", async () => {
    const { guild, api } = await ownerSetup();
    const create = async (type: number, name: string) => {
      const res = await api.post(`/guilds/${guild.id}/channels`, { type, name });
      expect(res.status).toBe(200);
      return res.body.name as string;
    };
    expect(await create(ChannelType.GuildText, "Game Night")).toBe("game-night");
    expect(await create(ChannelType.GuildForum, "Help & Support")).toBe("help-support");
    expect(await create(ChannelType.GuildMedia, "Fan Art")).toBe("fan-art");
    expect(await create(ChannelType.GuildVoice, "Game Night")).toBe("Game Night");
    expect(await create(ChannelType.GuildStageVoice, "Town Hall")).toBe("Town Hall");
    expect(await create(ChannelType.GuildCategory, "Fun & Games")).toBe("Fun & Games");
    // What readers are told is what is stored.
    const stored = await app.db.channel.findMany({ where: { guildId: guild.id, name: { in: ["game-night", "help-support"] } } });
    expect(stored).toHaveLength(2);
    const events = await app.db.event.findMany({ where: { guildId: guild.id, type: GatewayDispatchEvents.ChannelCreate } });
    expect(events.map((event) => (JSON.parse(event.data) as { name: string }).name)).toContain("game-night");
  });

  it("renames a text channel to the normalised name, and a voice channel as typed", async () => {
    const { guild, api } = await ownerSetup();
    const [, general, voice] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    const renamed = await api.patch(`/channels/${general.id}`, { name: "  Movie -- Night! " });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("movie-night");
    expect((await api.patch(`/channels/${voice.id}`, { name: "Movie Night" })).body.name).toBe("Movie Night");
  });

  it("refuses a text channel name with nothing left once normalised", async () => {
    const { guild, api } = await ownerSetup();
    const created = await api.post(`/guilds/${guild.id}/channels`, { name: "?!?" });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 50035, errors: { name: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } });
    const [, general] = (await api.get(`/guilds/${guild.id}/channels`)).body;
    expect((await api.patch(`/channels/${general.id}`, { name: "---" })).status).toBe(400);
  });
});
