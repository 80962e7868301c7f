import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { idRangeAt, newId } from "~/server/snowflake/snowflake.ts";
import { MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);

const MEMBER = P.ViewChannel | P.SendMessages | P.ReadMessageHistory;
const DAY_MS = 24 * 60 * 60 * 1000;

async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, 0n);
  const post = async (channelId: string, content: string) => (await base.api.post(`/channels/${channelId}/messages`, { content })).body.id as string;
  return { ...base, post };
}

describe("POST /channels/{channel.id}/messages/bulk-delete", () => {
  it("deletes the channel's messages among the ids, passing over the others, with one Message Delete Bulk and an audit entry", async () => {
    const { guild, text, api, owner, post } = await setup();
    const elsewhere = (await api.post(`/guilds/${guild.id}/channels`, { name: "elsewhere", type: ChannelType.GuildText })).body.id as string;
    const ids = [await post(text.id, "one"), await post(text.id, "two"), await post(text.id, "three")];
    const kept = await post(text.id, "kept");
    const otherChannels = await post(elsewhere, "not here");

    const deleted = await api.post(
      `/channels/${text.id}/messages/bulk-delete`,
      { messages: [...ids, otherChannels, newId()] },
      { headers: { "x-audit-log-reason": "purge" } },
    );
    expect(deleted.status).toBe(204);
    const left = (await api.get(`/channels/${text.id}/messages`)).body as { id: string }[];
    expect(left.map((message) => message.id)).toEqual([kept]);
    expect((await api.get(`/channels/${elsewhere}/messages/${otherChannels}`)).status).toBe(200);

    expect(await kit.eventsOf(guild.id, GatewayDispatchEvents.MessageDeleteBulk)).toEqual([{ ids, channel_id: text.id, guild_id: guild.id }]);
    const [entry] = await kit.auditOf(guild.id, AuditLogEvent.MessageBulkDelete);
    expect(entry).toMatchObject({ userId: owner.user.id, targetId: text.id, reason: "purge", options: { count: "3" } });
  });

  it("refuses fewer than 2 or more than 100 ids, duplicates, and a message two weeks old, deleting nothing", async () => {
    const { text, api, post } = await setup();
    const a = await post(text.id, "a");
    const b = await post(text.id, "b");
    const path = `/channels/${text.id}/messages/bulk-delete`;
    const codeOf = async (body: unknown) => {
      const res = await api.post(path, body);
      expect(res.status).toBe(400);
      return res.body.code === 50035 ? res.body.errors.messages._errors[0].code : res.body.code;
    };
    expect(await codeOf({ messages: [a] })).toBe("BASE_TYPE_MIN_LENGTH");
    expect(await codeOf({ messages: Array.from({ length: 101 }, () => newId()) })).toBe("BASE_TYPE_MAX_LENGTH");
    expect(await codeOf({ messages: [a, a] })).toBe("BASE_TYPE_DUPLICATES");
    const notAnId = await api.post(path, { messages: [a, "not-an-id"] });
    expect([notAnId.status, notAnId.body.code, Object.keys(notAnId.body.errors.messages)]).toEqual([400, 50035, ["1"]]);
    const old = idRangeAt(new Date(Date.now() - 14 * DAY_MS - 60_000)).first;
    const tooOld = await api.post(path, { messages: [a, b, old] });
    expect(tooOld.body).toEqual({ code: 50034, message: "You can only bulk delete messages that are under 14 days old." });
    expect(((await api.get(`/channels/${text.id}/messages`)).body as unknown[]).length).toBe(2);
  });

  it("needs MANAGE_MESSAGES in the channel", async () => {
    const { guild, text, post } = await setup();
    const member = await kit.addBotWithRole(guild.id, MEMBER, 1);
    const ids = [await post(text.id, "x"), await post(text.id, "y")];
    expect((await member.api.post(`/channels/${text.id}/messages/bulk-delete`, { messages: ids })).body).toEqual(MISSING_PERMISSIONS);
    const moderator = await kit.addBotWithRole(guild.id, MEMBER | P.ManageMessages, 2);
    expect((await moderator.api.post(`/channels/${text.id}/messages/bulk-delete`, { messages: ids })).status).toBe(204);
    expect(await app.db.message.count({ where: { id: { in: ids } } })).toBe(0);
  });
});
