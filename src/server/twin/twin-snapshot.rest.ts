import { z } from "zod";
import { created, noContent, ok } from "~/server/rest/route.ts";
import { twinRoute } from "./twin-route.ts";

const ZSnapshotBodySchema = z.object({ name: z.string().trim().min(1).max(100).optional() });

/** Snapshots of the twin's whole state: take, list, delete, restore (SQLite only). */
export const snapshotRoutes = [
  twinRoute({
    method: "POST",
    path: "/snapshots",
    body: ZSnapshotBodySchema,
    handler: async ({ ctx, body }) => created(await ctx.twin.snapshots.take(ctx.runtime, body.name ?? null)),
  }),
  twinRoute({
    method: "GET",
    path: "/snapshots",
    handler: ({ ctx }) => Promise.resolve(ok(ctx.twin.snapshots.list())),
  }),
  twinRoute({
    method: "DELETE",
    path: "/snapshots/:snapshotId",
    handler: ({ ctx, params }) => {
      ctx.twin.snapshots.delete(params.snapshotId);
      return Promise.resolve(noContent());
    },
  }),
  twinRoute({
    method: "POST",
    path: "/snapshots/:snapshotId/restore",
    handler: async ({ ctx, params }) => ok(await ctx.twin.snapshots.restore(ctx, params.snapshotId)),
  }),
];
