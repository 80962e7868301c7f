import { GuildScheduledEventEntityType as Entity, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, makeBot, writeGuildState } from "~/test/factories.ts";
import { bot } from "~/test/rest-client.ts";
import { memberKit } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const HOUR = 60 * 60 * 1000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

const { setupWithChannels: setup } = memberKit(app);

const external = { name: "Game night", privacy_level: 2, entity_type: Entity.External, entity_metadata: { location: "Town hall" } };

describe("scheduled events", () => {
  it("creates voice and external events, lists and gets them, with an event and an audit entry", async () => {
    const { guild, api, voice } = await setup();
    const inVoice = await api.post(`/guilds/${guild.id}/scheduled-events`, {
      name: "Voice hangout",
      privacy_level: 2,
      entity_type: Entity.Voice,
      channel_id: voice.id,
      scheduled_start_time: inHours(1),
    });
    expect(inVoice.status).toBe(200);
    expect(inVoice.body).toMatchObject({ guild_id: guild.id, channel_id: voice.id, status: 1, entity_type: Entity.Voice, entity_metadata: null });
    const outside = await api.post(`/guilds/${guild.id}/scheduled-events`, { ...external, scheduled_start_time: inHours(2), scheduled_end_time: inHours(3) });
    expect(outside.body.entity_metadata).toEqual({ location: "Town hall" });

    const list = await api.get(`/guilds/${guild.id}/scheduled-events`, { query: { with_user_count: true } });
    expect(list.body.map((e: { id: string }) => e.id)).toEqual([inVoice.body.id, outside.body.id]);
    expect(list.body[0].user_count).toBe(0);
    expect((await api.get(`/guilds/${guild.id}/scheduled-events/${outside.body.id}`)).body.name).toBe("Game night");
    expect((await api.get(`/guilds/${guild.id}/scheduled-events/${newId()}`)).body.code).toBe(10070);
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "GUILD_SCHEDULED_EVENT_CREATE" } })).toBe(2);
  });

  it("refuses events in the past, without their channel, location or end, and callers without MANAGE_EVENTS", async () => {
    const { guild, api, text } = await setup();
    const post = (body: object) => api.post(`/guilds/${guild.id}/scheduled-events`, body);
    expect((await post({ ...external, scheduled_start_time: inHours(-1), scheduled_end_time: inHours(1) })).body.errors.scheduled_start_time).toBeDefined();
    expect((await post({ ...external, scheduled_start_time: inHours(1) })).body.errors.scheduled_end_time).toBeDefined();
    expect((await post({ ...external, entity_metadata: {}, scheduled_start_time: inHours(1), scheduled_end_time: inHours(2) })).body.code).toBe(50035);
    expect(
      (await post({ name: "x", privacy_level: 2, entity_type: Entity.Voice, channel_id: text.id, scheduled_start_time: inHours(1) })).body.errors.channel_id,
    ).toBeDefined();
    expect((await post({ ...external, scheduled_start_time: inHours(2), scheduled_end_time: inHours(1) })).body.errors.scheduled_end_time).toBeDefined();

    const helper = await makeBot(app.db);
    await addMember(app.db, guild.id, helper.user.id);
    await writeGuildState(app.db, guild.id, (tx) => tx.role.update({ where: { id: guild.id }, data: { permissions: P.ViewChannel } }));
    const denied = await app
      .as(bot(helper.token))
      .post(`/guilds/${guild.id}/scheduled-events`, { ...external, scheduled_start_time: inHours(1), scheduled_end_time: inHours(2) });
    expect(denied.body.code).toBe(50013);
  });

  it("shows an invite's event only when the id names an event of that guild", async () => {
    const { guild, api, text } = await setup();
    const event = (await api.post(`/guilds/${guild.id}/scheduled-events`, { ...external, scheduled_start_time: inHours(1), scheduled_end_time: inHours(2) }))
      .body;
    const other = await setup();
    const foreign = (
      await other.api.post(`/guilds/${other.guild.id}/scheduled-events`, { ...external, scheduled_start_time: inHours(1), scheduled_end_time: inHours(2) })
    ).body;
    const code = (await api.post(`/channels/${text.id}/invites`, {})).body.code as string;
    const resolve = (id: string) => app.as().get(`/invites/${code}`, { query: { guild_scheduled_event_id: id } });
    expect((await resolve(event.id)).body.guild_scheduled_event).toMatchObject({ id: event.id, name: "Game night" });
    expect((await resolve(foreign.id)).body.guild_scheduled_event).toBeUndefined();
    expect((await resolve(newId())).body.guild_scheduled_event).toBeUndefined();
  });
});
