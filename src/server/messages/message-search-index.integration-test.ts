import { describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { writeGuildState } from "~/test/factories.ts";
import { memberKit } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { webhookKit } from "~/test/webhook-kit.ts";
import { requestSearchIndexBuild, runSearchIndexBuild } from "./message-search-index.ts";

// Every answer of these requests is also checked against the platform's guild_search operation (test-app.ts).
const app = useTestApp();
const kit = memberKit(app);
const hooks = webhookKit(app);

type Api = ReturnType<typeof app.as>;

const NOT_INDEXED = { message: "Index not yet available. Try again later", code: 110000, retry_after: 2 };

async function setup() {
  const base = await kit.setupWithChannels();
  await setApprovedIntents({ db: app.db, actor: null }, base.owner.application.id, ["MESSAGE_CONTENT"], true);
  return base;
}

function search(api: Api, guildId: string, query: Record<string, string> = {}) {
  return api.get(`/guilds/${guildId}/messages/search`, { query });
}

async function post(api: Api, channelId: string, content: string): Promise<string> {
  const res = await api.post(`/channels/${channelId}/messages`, { content });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

/** Rows in the search index, of every guild. */
async function indexRows(): Promise<number> {
  const [row] = await app.db.$queryRaw<{ n: bigint | number }[]>`SELECT COUNT(*) AS "n" FROM "MessageSearch"`;
  return Number(row!.n);
}

/** Messages stored as if from before the index: written, then their index rows taken away. */
async function messagesFromBefore(guildId: string, channelId: string, count: number, authorId: string) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    channelId,
    guildId,
    authorId,
    content: i % 2 ? `odd archive ${i}` : `even archive ${i}`,
  }));
  await writeGuildState(app.db, guildId, (tx) => tx.message.createMany({ data: rows }));
  await app.db.$executeRaw`DELETE FROM "MessageSearch"`;
  return rows.map((row) => row.id);
}

describe("the message search index", () => {
  it("answers 202 with 110000 while a guild's index is built, then finds what the build indexed, in batches", async () => {
    const { guild, text, api, owner } = await setup();
    await messagesFromBefore(guild.id, text.id, 1201, owner.user.id);
    expect((await search(api, guild.id, { content: "archive" })).body.total_results).toBe(0);

    await requestSearchIndexBuild(app.db, guild.id);
    const pending = await search(api, guild.id, { content: "archive" });
    expect(pending.status).toBe(202);
    expect(pending.body).toEqual({ ...NOT_INDEXED, documents_indexed: 0 });

    await runSearchIndexBuild(app.db, guild.id);
    const done = await search(api, guild.id, { content: "odd archive" });
    expect(done.status).toBe(200);
    expect(done.body.total_results).toBe(600);
    expect(done.body.messages).toHaveLength(25);
    expect((await search(api, guild.id, { content: "archive" })).body.total_results).toBe(1201);
  });

  it("leaves a build a live worker holds alone, takes up one whose worker stopped where it stood, and counts what it indexed", async () => {
    const { guild, text, api, owner } = await setup();
    const ids = await messagesFromBefore(guild.id, text.id, 700, owner.user.id);
    await requestSearchIndexBuild(app.db, guild.id);
    // A worker elsewhere got through the first 500 (in text order) and holds the lease.
    const firstBatch = [...ids].sort().slice(0, 500);
    await app.db.searchIndexBuild.update({
      where: { guildId: guild.id },
      data: { cursor: firstBatch.at(-1)!, documentsIndexed: 500, leaseToken: "elsewhere", leaseUntil: new Date(Date.now() + 60_000) },
    });
    await runSearchIndexBuild(app.db, guild.id);
    expect((await search(api, guild.id)).body).toEqual({ ...NOT_INDEXED, documents_indexed: 500 });

    // It stopped: the lease lapses and the build goes on after its cursor.
    await app.db.searchIndexBuild.update({ where: { guildId: guild.id }, data: { leaseUntil: new Date(Date.now() - 1000) } });
    await runSearchIndexBuild(app.db, guild.id);
    expect((await search(api, guild.id, { content: "archive" })).body.total_results).toBe(200);
  });

  it("indexes a new guild's messages from the start", async () => {
    const { guild, text, api } = await setup();
    const id = await post(api, text.id, "first words");
    const res = await search(api, guild.id, { content: "words" });
    expect([res.status, res.body.total_results, res.body.messages[0][0].id]).toEqual([200, 1, id]);
  });

  it("follows edits, deletes, and deleted channels and guilds, whoever wrote the message", async () => {
    const { guild, text, api } = await setup();
    const ids = (query: Record<string, string>) => search(api, guild.id, query).then((res) => res.body.messages.map(([m]: { id: string }[]) => m!.id));
    const id = await post(api, text.id, "alpha release");
    expect((await api.patch(`/channels/${text.id}/messages/${id}`, { content: "beta release" })).status).toBe(200);
    expect(await ids({ content: "alpha" })).toEqual([]);
    expect(await ids({ content: "beta" })).toEqual([id]);
    // An edit that leaves the content alone keeps it findable.
    expect((await api.patch(`/channels/${text.id}/messages/${id}`, { embeds: [{ title: "notes" }] })).status).toBe(200);
    expect(await ids({ content: "beta" })).toEqual([id]);

    const hook = await hooks.webhook(api, text.id);
    const hooked = (await app.as().post(`/webhooks/${hook.id}/${hook.token}?wait=true`, { content: "gamma build" })).body.id as string;
    expect((await app.as().patch(`/webhooks/${hook.id}/${hook.token}/messages/${hooked}`, { content: "delta build" })).status).toBe(200);
    expect(await ids({ content: "build" })).toEqual([hooked]);
    expect(await ids({ content: "gamma" })).toEqual([]);

    const before = await indexRows();
    expect((await api.delete(`/channels/${text.id}/messages/${id}`)).status).toBe(204);
    expect(await ids({ content: "release" })).toEqual([]);
    expect(await indexRows()).toBe(before - 1);

    // A channel's messages leave the index with it, and a guild's with the guild.
    const other = (await api.post(`/guilds/${guild.id}/channels`, { name: "other" })).body;
    await post(api, other.id, "epsilon");
    await post(api, other.id, "zeta");
    expect(await indexRows()).toBe(before + 1);
    expect((await api.delete(`/channels/${other.id}`)).status).toBe(200);
    expect(await indexRows()).toBe(before - 1);
    expect((await api.delete(`/guilds/${guild.id}`)).status).toBe(204);
    expect(await indexRows()).toBe(before - 2);
  });

  it("refuses to rebuild the index of an unknown guild", async () => {
    await expect(requestSearchIndexBuild(app.db, "1234567890123456789")).rejects.toMatchObject({ code: 10004 });
  });
});
