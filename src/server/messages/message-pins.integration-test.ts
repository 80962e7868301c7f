import { AuditLogEvent, GatewayDispatchEvents, MessageType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { writeGuildState } from "~/test/factories.ts";
import { MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);

const MEMBER = P.ViewChannel | P.SendMessages | P.ReadMessageHistory;

async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, 0n);
  const post = async (content: string) => (await base.api.post(`/channels/${base.text.id}/messages`, { content })).body.id as string;
  return { ...base, post };
}

describe("pins", () => {
  it("pins a message with its system message, Message Update, Channel Pins Update and an audit entry, and unpins it", async () => {
    const { guild, text, api, owner, post } = await setup();
    const rules = await post("Rule 1: be kind");

    expect((await api.put(`/channels/${text.id}/messages/pins/${rules}`)).status).toBe(204);
    expect((await api.get(`/channels/${text.id}/messages/${rules}`)).body.pinned).toBe(true);
    const [notice] = (await api.get(`/channels/${text.id}/messages?limit=1`)).body;
    expect(notice).toMatchObject({ type: MessageType.ChannelPinnedMessage, author: { id: owner.user.id }, message_reference: { message_id: rules } });
    const [pinsUpdate] = await kit.eventsOf(guild.id, GatewayDispatchEvents.ChannelPinsUpdate);
    expect(pinsUpdate).toMatchObject({ guild_id: guild.id, channel_id: text.id });
    expect(Date.parse(pinsUpdate!.last_pin_timestamp)).not.toBeNaN();
    const updates = (await kit.eventsOf(guild.id, GatewayDispatchEvents.MessageUpdate)).filter((event) => event.id === rules);
    expect(updates.map((event) => event.pinned)).toEqual([true]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.MessagePin)).toMatchObject([
      { targetId: owner.user.id, options: { channel_id: text.id, message_id: rules } },
    ]);

    // Pinning it again changes nothing; the older path lists and unpins the same pins.
    expect((await api.put(`/channels/${text.id}/pins/${rules}`)).status).toBe(204);
    expect(((await api.get(`/channels/${text.id}/pins`)).body as { id: string }[]).map((m) => m.id)).toEqual([rules]);
    expect((await api.delete(`/channels/${text.id}/pins/${rules}`)).status).toBe(204);
    expect((await api.get(`/channels/${text.id}/messages/pins`)).body).toEqual({ items: [], has_more: false });
    expect((await kit.eventsOf(guild.id, GatewayDispatchEvents.ChannelPinsUpdate)).at(-1)).toMatchObject({ last_pin_timestamp: null });
    expect(await kit.auditOf(guild.id, AuditLogEvent.MessageUnpin)).toHaveLength(1);
  });

  it("lists pins newest first, by page, with when each was pinned", async () => {
    const { guild, text, api, post } = await setup();
    const ids = [await post("a"), await post("b"), await post("c")];
    for (const [i, id] of ids.entries()) {
      await api.put(`/channels/${text.id}/messages/pins/${id}`);
      // Distinct pin times, so the order under test does not hang on the clock's resolution.
      await writeGuildState(app.db, guild.id, (tx) => tx.message.update({ where: { id }, data: { pinnedAt: new Date(Date.UTC(2026, 10, 1 + i)) } }));
    }
    const page = (await api.get(`/channels/${text.id}/messages/pins?limit=2`)).body;
    expect(page.items.map((item: { message: { id: string } }) => item.message.id)).toEqual([ids[2], ids[1]]);
    expect(page.items[0].pinned_at).toBe("2026-11-03T00:00:00.000Z");
    expect(page.has_more).toBe(true);
    const rest = (await api.get(`/channels/${text.id}/messages/pins?before=${encodeURIComponent(page.items[1].pinned_at)}`)).body;
    expect([rest.items.map((item: { message: { id: string } }) => item.message.id), rest.has_more]).toEqual([[ids[0]], false]);
    expect((await api.get(`/channels/${text.id}/messages/pins?limit=51`)).status).toBe(400);
  });

  it("needs PIN_MESSAGES, stops at 50 pins (30003), and answers 10008 for another channel's message", async () => {
    const { guild, text, api, post } = await setup();
    const member = await kit.addBotWithRole(guild.id, MEMBER, 1);
    const id = await post("pin me");
    expect((await member.api.put(`/channels/${text.id}/messages/pins/${id}`)).body).toEqual(MISSING_PERMISSIONS);
    const pinner = await kit.addBotWithRole(guild.id, MEMBER | P.PinMessages, 2);
    expect((await pinner.api.put(`/channels/${text.id}/messages/pins/${id}`)).status).toBe(204);

    const others: string[] = [];
    for (let i = 0; i < 49; i++) others.push(await post(`pin ${i}`));
    await writeGuildState(app.db, guild.id, (tx) => tx.message.updateMany({ where: { id: { in: others } }, data: { pinned: true, pinnedAt: new Date() } }));
    const extra = await post("one too many");
    expect((await api.put(`/channels/${text.id}/messages/pins/${extra}`)).body).toMatchObject({ code: 30003 });
    expect((await api.get(`/channels/${text.id}/messages/${extra}`)).body.pinned).toBe(false);

    const elsewhere = (await api.post(`/guilds/${guild.id}/channels`, { name: "elsewhere" })).body.id as string;
    expect((await api.put(`/channels/${elsewhere}/messages/pins/${extra}`)).body.code).toBe(10008);
  });
});
