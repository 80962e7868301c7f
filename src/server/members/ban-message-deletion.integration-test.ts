import { DiscordSnowflake } from "@sapphire/snowflake";
import { ChannelType, GatewayDispatchEvents as E, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { readAttachmentFile } from "~/server/images/image.service.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";
import { runDueBanMessageDeletions } from "./ban-message-deletion.ts";

const app = useTestApp();
const kit = threadKit(app);
const HOUR_MS = 60 * 60 * 1000;

/** A message id made `ago` milliseconds ago. */
function idAgo(ago: number): string {
  return DiscordSnowflake.generate({ timestamp: Date.now() - ago }).toString();
}

/** A guild with a text channel and a thread in it, a moderator, the user to ban and a bystander, both members. */
async function setup(modPermissions: bigint = P.BanMembers) {
  const base = await kit.setup();
  const { guild, text, api } = base;
  const thread = (await api.post(`/channels/${text.id}/threads`, { name: "talk", type: ChannelType.PublicThread })).body as { id: string };
  const mod = await kit.addBotWithRole(guild.id, modPermissions, 5);
  const target = await kit.addBot(guild.id);
  const bystander = await kit.addBot(guild.id);
  return { ...base, thread, mod, target, bystander };
}

/** Messages written as an operator would: `count` by `authorId` in `channelId`, made `ago` ms ago. */
async function insertMessages(guildId: string, channelId: string, authorId: string, count: number, ago = 0): Promise<string[]> {
  const ids = Array.from({ length: count }, () => (ago ? idAgo(ago) : newId()));
  await writeGuildState(app.db, guildId, (tx) =>
    tx.message.createMany({ data: ids.map((id, i) => ({ id, channelId, guildId, authorId, content: `message ${i}` })) }),
  );
  return ids;
}

async function post(api: ReturnType<typeof app.as>, channelId: string, content: string): Promise<string> {
  const res = await api.post(`/channels/${channelId}/messages`, { content });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

/** The ids each channel heard deleted through Message Delete Bulk. */
async function bulkDeleted(guildId: string): Promise<Map<string, string[]>> {
  const byChannel = new Map<string, string[]>();
  for (const event of await kit.eventsOf(guildId, E.MessageDeleteBulk)) {
    expect(event.guild_id).toBe(guildId);
    expect(event.ids.length).toBeLessThanOrEqual(100);
    byChannel.set(event.channel_id, [...(byChannel.get(event.channel_id) ?? []), ...(event.ids as string[])]);
  }
  return byChannel;
}

const remaining = async (ids: readonly string[]) => (await app.db.message.findMany({ where: { id: { in: [...ids] } }, select: { id: true } })).length;

describe("a ban's delete_message_seconds", () => {
  it("deletes the user's messages of that window in every channel and thread, with Message Delete Bulk per channel and their files", async () => {
    const { guild, owner, api, text, thread, mod, target, bystander } = await setup();
    const inText = [await post(target.api, text.id, "spam 1"), await post(target.api, text.id, "spam 2")];
    const inThread = [await post(target.api, thread.id, "spam in a thread")];
    const form = new FormData();
    form.set("payload_json", JSON.stringify({ content: "spam with a file" }));
    form.set("files[0]", new Blob(["junk"], { type: "text/plain" }), "junk.txt");
    const withFile = await app.dispatch(
      new Request(`http://guildhall.test/api/v10/channels/${text.id}/messages`, {
        method: "POST",
        headers: { authorization: `Bot ${target.token}` },
        body: form,
      }),
    );
    const fileMessage = (await withFile.json()) as { id: string; attachments: { url: string }[] };
    inText.push(fileMessage.id);
    const older = await insertMessages(guild.id, text.id, target.user.id, 1, 2 * HOUR_MS);
    const others = [await post(bystander.api, text.id, "hello"), await post(bystander.api, thread.id, "hi")];
    await setApprovedIntents({ db: app.db, actor: null }, owner.application.id, ["MESSAGE_CONTENT"], true);
    const searchSpam = async () => (await api.get(`/guilds/${guild.id}/messages/search`, { query: { content: "spam" } })).body.total_results as number;
    expect(await searchSpam()).toBe(4);

    const res = await mod.api.put(`/guilds/${guild.id}/bans/${target.user.id}`, { delete_message_seconds: 3600 });
    expect(res.status).toBe(204);
    expect(await remaining([...inText, ...inThread])).toBe(0);
    const deleted = await bulkDeleted(guild.id);
    expect(deleted.get(text.id)?.sort()).toEqual([...inText].sort());
    expect(deleted.get(thread.id)).toEqual(inThread);
    expect(await readAttachmentFile(app.db, new URL(fileMessage.attachments[0]!.url).pathname)).toBeNull();
    expect(await searchSpam()).toBe(0);
    // Older than the window, and other people's, stay.
    expect(await remaining(older)).toBe(1);
    expect(await remaining(others)).toBe(2);
  });

  it("takes the deprecated delete_message_days, and deletes nothing without either", async () => {
    const { guild, text, mod, target, bystander } = await setup();
    const kept = await insertMessages(guild.id, text.id, bystander.user.id, 1);
    const recent = await insertMessages(guild.id, text.id, target.user.id, 2, 20 * HOUR_MS);
    const old = await insertMessages(guild.id, text.id, target.user.id, 1, 30 * HOUR_MS);
    expect((await mod.api.put(`/guilds/${guild.id}/bans/${target.user.id}`, { delete_message_days: 1 })).status).toBe(204);
    expect(await remaining(recent)).toBe(0);
    expect(await remaining([...old, ...kept])).toBe(2);

    const other = await kit.addBot(guild.id);
    const theirs = await insertMessages(guild.id, text.id, other.user.id, 1);
    expect((await mod.api.put(`/guilds/${guild.id}/bans/${other.user.id}`)).status).toBe(204);
    expect(await remaining(theirs)).toBe(1);
  });

  it("finishes many messages in the background after the ban has answered", async () => {
    const { guild, text, thread, mod, target, bystander } = await setup();
    const inText = await insertMessages(guild.id, text.id, target.user.id, 900);
    const inThread = await insertMessages(guild.id, thread.id, target.user.id, 300);
    const others = await insertMessages(guild.id, text.id, bystander.user.id, 3);
    expect((await mod.api.put(`/guilds/${guild.id}/bans/${target.user.id}`, { delete_message_seconds: 600 })).status).toBe(204);
    await until(async () => (await remaining([...inText, ...inThread])) === 0 && (await app.db.banMessageDeletion.count()) === 0);
    const deleted = await bulkDeleted(guild.id);
    expect(deleted.get(text.id)?.sort()).toEqual([...inText].sort());
    expect(deleted.get(thread.id)?.sort()).toEqual([...inThread].sort());
    expect(await remaining(others)).toBe(3);
  });

  it("is taken up by the background when the process that began it stopped", async () => {
    const { guild, text, target } = await setup();
    const ids = await insertMessages(guild.id, text.id, target.user.id, 3);
    const lapsed = new Date(Date.now() - 1000);
    await app.db.banMessageDeletion.create({
      data: { id: "stopped", guildId: guild.id, userId: target.user.id, sinceId: idAgo(HOUR_MS), untilId: newId(), leaseUntil: lapsed },
    });
    await runDueBanMessageDeletions(app.db);
    expect(await remaining(ids)).toBe(0);
    expect(await app.db.banMessageDeletion.count({ where: { id: "stopped" } })).toBe(0);
    expect((await bulkDeleted(guild.id)).get(text.id)?.sort()).toEqual([...ids].sort());
  });

  it("applies to each user of a bulk ban", async () => {
    const { guild, text, mod, target, bystander } = await setup(P.BanMembers | P.ManageGuild);
    const theirs = await insertMessages(guild.id, text.id, target.user.id, 2);
    const also = await insertMessages(guild.id, text.id, bystander.user.id, 2);
    const res = await mod.api.post(`/guilds/${guild.id}/bulk-ban`, { user_ids: [target.user.id, bystander.user.id], delete_message_seconds: 60 });
    expect(res.status).toBe(200);
    expect(await remaining([...theirs, ...also])).toBe(0);
  });

  it("is what the dashboard's ban form sends as deleteMessageSeconds", async () => {
    const owner = await makeUser(app.db);
    const guild = await makeGuild(app.db, dashboardActor(owner.user.id));
    const channels = await app.db.channel.findMany({ where: { guildId: guild.id, type: ChannelType.GuildText } });
    const target = await kit.addBot(guild.id);
    const ids = await insertMessages(guild.id, channels[0]!.id, target.user.id, 2);
    await createCaller({ db: app.db, userId: owner.user.id }).member.ban({ guildId: guild.id, userId: target.user.id, deleteMessageSeconds: 3600 });
    expect(await remaining(ids)).toBe(0);
  });
});
