import { describe, expect, it } from "vitest";
import { useTestApp } from "~/test/test-app.ts";
import { pruneOutbox } from "./outbox-retention.ts";

const app = useTestApp();
const DAY = 24 * 60 * 60 * 1000;

describe("outbox retention", () => {
  it("deletes events older than the window, keeps the rest, and is safe to run on several instances at once", async () => {
    const now = new Date();
    const type = `RETENTION_TEST_${now.getTime()}`;
    const ages = [10, 9, 8, 7.5, 7.01, 6.9, 3, 0];
    await app.db.event.createMany({
      data: ages.flatMap((days) => Array.from({ length: 3 }, () => ({ type, data: "{}", createdAt: new Date(now.getTime() - days * DAY) }))),
    });
    const others = await app.db.event.count({ where: { type: { not: type } } });

    // Three instances sweep at once, in small batches.
    const counts = await Promise.all([1, 2, 3].map(() => pruneOutbox(app.db, { now, retentionDays: 7, batchSize: 4 })));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(15);
    const left = await app.db.event.findMany({ where: { type }, select: { createdAt: true } });
    expect(left).toHaveLength(9);
    expect(left.every((e) => now.getTime() - e.createdAt.getTime() < 7 * DAY)).toBe(true);
    expect(await app.db.event.count({ where: { type: { not: type } } })).toBe(others);
    expect(await pruneOutbox(app.db, { now, retentionDays: 7 })).toBe(0);
  });

  it("follows the configured window", async () => {
    const now = new Date();
    const type = `RETENTION_WINDOW_${now.getTime()}`;
    await app.db.event.createMany({ data: [2, 0.5].map((days) => ({ type, data: "{}", createdAt: new Date(now.getTime() - days * DAY) })) });
    await pruneOutbox(app.db, { now, retentionDays: 1 });
    expect(await app.db.event.count({ where: { type } })).toBe(1);
  });
});
