import { z } from "zod";
import { runDueWork } from "~/server/background.ts";
import { ok } from "~/server/rest/route.ts";
import { ZTimestampSchema } from "~/server/validation/fields.ts";
import { moveClock } from "./twin-clock.ts";
import { twinRoute } from "./twin-route.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** One move forward at most: a century keeps every date the service writes valid. */
const MAX_ADVANCE_MS = 36_525 * DAY_MS;

const ZClockBodySchema = z
  .strictObject({
    advance_ms: z.number().int().positive().max(MAX_ADVANCE_MS).optional(),
    set: ZTimestampSchema.optional(),
    frozen: z.boolean().optional(),
  })
  .check((ctx) => {
    const { advance_ms, set, frozen } = ctx.value;
    if (advance_ms === undefined && set === undefined && frozen === undefined)
      ctx.issues.push({ code: "custom", input: ctx.value, message: "Give advance_ms, set or frozen.", params: { code: "BASE_TYPE_REQUIRED" } });
    if (advance_ms !== undefined && set !== undefined)
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        path: ["set"],
        message: "Give advance_ms or set, not both.",
        params: { code: "BASE_TYPE_INVALID" },
      });
  });

/** The clock's rows of the twin namespace: read it; move or freeze it, then run what came due. */
export const clockRoutes = [
  twinRoute({
    method: "GET",
    path: "/clock",
    handler: ({ ctx }) => Promise.resolve(ok(ctx.twin.clock.state())),
  }),
  twinRoute({
    method: "POST",
    path: "/clock",
    body: ZClockBodySchema,
    handler: async ({ ctx, body }) => {
      moveClock(ctx.twin.clock, body);
      // Every sweep runs now, so what expired is gone, and announced, when this answers.
      const swept = await runDueWork(ctx.runtime.db, ctx.gateway);
      return ok({ clock: ctx.twin.clock.state(), swept });
    },
  }),
];
