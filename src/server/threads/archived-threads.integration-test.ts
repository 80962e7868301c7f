import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { writeGuildState } from "~/test/factories.ts";
import { MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);

const READER = P.ViewChannel | P.ReadMessageHistory | P.SendMessagesInThreads | P.CreatePrivateThreads;

type Listing = { threads: { id: string; thread_metadata: { archived: boolean; archive_timestamp: string } }[]; members: { id: string }[]; has_more: boolean };

async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, 0n);
  /** A thread of `type` in #general started by `api`, archived at `archivedAt`. */
  const archived = async (api: typeof base.api, name: string, type: ChannelType, archivedAt: string) => {
    const thread = (await api.post(`/channels/${base.text.id}/threads`, { name, type })).body as { id: string };
    expect((await api.patch(`/channels/${thread.id}`, { archived: true })).status).toBe(200);
    // Distinct archive times, so the order under test does not hang on the clock's resolution.
    await writeGuildState(app.db, base.guild.id, (tx) =>
      tx.channel.update({ where: { id: thread.id }, data: { threadArchiveTimestamp: new Date(archivedAt) } }),
    );
    return thread.id;
  };
  return { ...base, archived };
}

describe("archived threads", () => {
  it("lists a channel's public ones, latest archived first, by page with before and limit", async () => {
    const { text, api, archived } = await setup();
    const first = await archived(api, "first", ChannelType.PublicThread, "2026-11-01T10:00:00.000Z");
    const second = await archived(api, "second", ChannelType.PublicThread, "2026-11-02T10:00:00.000Z");
    const third = await archived(api, "third", ChannelType.PublicThread, "2026-11-03T10:00:00.000Z");
    await archived(api, "hidden", ChannelType.PrivateThread, "2026-11-04T10:00:00.000Z");
    await api.post(`/channels/${text.id}/threads`, { name: "still open", type: ChannelType.PublicThread });
    const path = `/channels/${text.id}/threads/archived/public`;

    const all = (await api.get<Listing>(path)).body;
    expect(all.threads.map((thread) => thread.id)).toEqual([third, second, first]);
    expect(all.threads.every((thread) => thread.thread_metadata.archived)).toBe(true);
    expect(all.members.map((member) => member.id)).toEqual([third, second, first]);
    expect(all.has_more).toBe(false);

    const page = (await api.get<Listing>(`${path}?limit=2`)).body;
    expect([page.threads.map((thread) => thread.id), page.has_more]).toEqual([[third, second], true]);
    const next = (await api.get<Listing>(`${path}?limit=2&before=${encodeURIComponent(page.threads[1]!.thread_metadata.archive_timestamp)}`)).body;
    expect([next.threads.map((thread) => thread.id), next.has_more]).toEqual([[first], false]);

    expect((await api.get(`${path}?limit=1`)).body.errors.limit._errors[0].code).toBe("NUMBER_TYPE_MIN");
    expect((await api.get(`${path}?before=yesterday`)).status).toBe(400);
  });

  it("lists private ones to those who manage threads, and each member the private ones they joined", async () => {
    const { guild, text, api, archived } = await setup();
    const reader = await kit.addBotWithRole(guild.id, READER, 2);
    const owners = await archived(api, "owner's", ChannelType.PrivateThread, "2026-11-01T10:00:00.000Z");
    const readers = await archived(reader.api, "reader's", ChannelType.PrivateThread, "2026-11-02T10:00:00.000Z");

    const everyPrivate = (await api.get<Listing>(`/channels/${text.id}/threads/archived/private`)).body;
    expect(everyPrivate.threads.map((thread) => thread.id)).toEqual([readers, owners]);
    expect((await reader.api.get(`/channels/${text.id}/threads/archived/private`)).body).toEqual(MISSING_PERMISSIONS);

    const joined = `/channels/${text.id}/users/@me/threads/archived/private`;
    const mine = (await reader.api.get<Listing>(joined)).body;
    expect([mine.threads.map((thread) => thread.id), mine.members.map((member) => member.id)]).toEqual([[readers], [readers]]);
    expect((await api.get<Listing>(joined)).body.threads.map((thread) => thread.id)).toEqual([owners]);
    expect((await reader.api.get<Listing>(`${joined}?before=${readers}`)).body.threads).toEqual([]);

    // Without READ_MESSAGE_HISTORY nothing of the archive is listed.
    const blind = await kit.addBotWithRole(guild.id, P.ViewChannel, 1);
    expect((await blind.api.get(`/channels/${text.id}/threads/archived/public`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await blind.api.get(joined)).body).toEqual(MISSING_PERMISSIONS);
  });
});
