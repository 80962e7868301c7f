import { AuditLogEvent, GatewayDispatchEvents } from "discord-api-types/v10";
import { afterEach, describe, expect, it, vi } from "vitest";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { sweepInactiveThreads } from "./thread-auto-archive.ts";

const app = useTestApp();
const kit = threadKit(app);
const MINUTE = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

/** Runs `act` with the clock at `at`. */
async function at<T>(time: Date, act: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(time);
  try {
    return await act();
  } finally {
    vi.useRealTimers();
  }
}

describe("thread auto-archive", () => {
  it("archives a thread quiet for its duration once, with one Thread Update, even with two sweeps at once; a thread with a newer message stays open", async () => {
    const { guild, api, text } = await kit.setup();
    const start = new Date(Date.now() + MINUTE);
    const [quiet, busy, daily] = await at(start, async () => [
      (await api.post(`/channels/${text.id}/threads`, { name: "quiet", type: 11, auto_archive_duration: 60 })).body,
      (await api.post(`/channels/${text.id}/threads`, { name: "busy", type: 11, auto_archive_duration: 60 })).body,
      (await api.post(`/channels/${text.id}/threads`, { name: "daily", type: 11, auto_archive_duration: 1440 })).body,
    ]);
    // Forty minutes in, someone writes in the busy thread: its hour starts again.
    await at(new Date(start.getTime() + 40 * MINUTE), () => api.post(`/channels/${busy.id}/messages`, { content: "still here" }));

    const later = new Date(start.getTime() + 61 * MINUTE);
    // Before the sweep runs, readers already see the quiet thread as archived: it is not active.
    const active = await at(later, () => api.get(`/guilds/${guild.id}/threads/active`));
    expect(active.body.threads.map((thread: { name: string }) => thread.name).sort()).toEqual(["busy", "daily"]);

    const counts = await Promise.all([sweepInactiveThreads(app.db, later), sweepInactiveThreads(app.db, later)]);
    expect(counts[0] + counts[1]).toBe(1);
    expect(await sweepInactiveThreads(app.db, later)).toBe(0);

    const updates = await kit.eventsOf(guild.id, GatewayDispatchEvents.ThreadUpdate);
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ id: quiet.id, thread_metadata: { archived: true, archive_timestamp: later.toISOString(), auto_archive_duration: 60 } });
    const read = await api.get(`/channels/${quiet.id}`);
    expect(read.body.thread_metadata).toMatchObject({ archived: true, archive_timestamp: later.toISOString() });
    expect((await api.get(`/channels/${busy.id}`)).body.thread_metadata.archived).toBe(false);
    expect((await api.get(`/channels/${daily.id}`)).body.thread_metadata.archived).toBe(false);
    // No one archived it: no audit entry, as on the platform.
    expect(await kit.auditOf(guild.id, AuditLogEvent.ThreadUpdate)).toEqual([]);

    // The busy thread archives an hour after its last message.
    expect(await sweepInactiveThreads(app.db, new Date(start.getTime() + 101 * MINUTE))).toBe(1);
    expect((await api.get(`/channels/${busy.id}`)).body.thread_metadata.archived).toBe(true);
  });

  it("counts an unarchived thread's quiet time from when it was unarchived", async () => {
    const { api, text } = await kit.setup();
    const start = new Date(Date.now() + MINUTE);
    const thread = await at(start, async () => (await api.post(`/channels/${text.id}/threads`, { name: "again", type: 11, auto_archive_duration: 60 })).body);
    expect(await sweepInactiveThreads(app.db, new Date(start.getTime() + 61 * MINUTE))).toBe(1);
    const reopenedAt = new Date(start.getTime() + 90 * MINUTE);
    await at(reopenedAt, () => api.patch(`/channels/${thread.id}`, { archived: false }));
    expect(await sweepInactiveThreads(app.db, new Date(reopenedAt.getTime() + 59 * MINUTE))).toBe(0);
    expect(await sweepInactiveThreads(app.db, new Date(reopenedAt.getTime() + 60 * MINUTE))).toBe(1);
  });
});
