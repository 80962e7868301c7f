import { tracked } from "@trpc/server";
import { z } from "zod";
import { ZApplicationIdInputSchema } from "~/server/applications/application.schema.ts";
import { ownedApplication } from "~/server/applications/application-dashboard.service.ts";
import { ApiError } from "~/server/errors.ts";
import { createTRPCRouter, protectedProcedure, type TRPCContext } from "~/server/trpc/init.ts";
import { MAX_CALLS_PER_READ, type CallRecorder } from "./call-recorder.ts";

/** The Inspector exists in test mode only: without it, its procedures are not found, as its page. */
function recorderOf(ctx: TRPCContext): CallRecorder {
  if (!ctx.recorder) throw new ApiError("NOT_FOUND");
  return ctx.recorder;
}

/**
 * The dashboard's Inspector (test mode): an application's recorded calls to its owner, live.
 * The stream sends the latest calls (or those after the browser's last id when it
 * reconnects), then each call as it is recorded, with its id as the event id.
 */
export const inspectorRouter = createTRPCRouter({
  /** Whether this instance runs in test mode, so pages show the Inspector's link. */
  available: protectedProcedure.query(({ ctx }) => Boolean(ctx.recorder)),

  calls: protectedProcedure.input(ZApplicationIdInputSchema.extend({ lastEventId: z.string().max(20).nullish() })).subscription(async function* ({
    ctx,
    input,
    signal,
  }) {
    const recorder = recorderOf(ctx);
    await ownedApplication(ctx, input.applicationId);
    // Listening before the first read: a call recorded in between wakes the loop below.
    let wake: (() => void) | null = null;
    let recorded = false;
    const stop = recorder.listen(input.applicationId, () => {
      recorded = true;
      wake?.();
    });
    const aborted = () => wake?.();
    signal?.addEventListener("abort", aborted, { once: true });
    try {
      const lastId = input.lastEventId && /^\d{1,15}$/.test(input.lastEventId) ? Number(input.lastEventId) : undefined;
      let page = recorder.list(input.applicationId, { after: lastId, limit: MAX_CALLS_PER_READ });
      while (!signal?.aborted) {
        for (const call of page.calls) yield tracked(String(call.id), call);
        if (page.calls.length < MAX_CALLS_PER_READ && !recorded) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        recorded = false;
        page = recorder.list(input.applicationId, { after: page.next_after, limit: MAX_CALLS_PER_READ });
      }
    } finally {
      stop();
      signal?.removeEventListener("abort", aborted);
    }
  }),

  clear: protectedProcedure.input(ZApplicationIdInputSchema).mutation(async ({ ctx, input }) => {
    const recorder = recorderOf(ctx);
    await ownedApplication(ctx, input.applicationId);
    recorder.clear(input.applicationId);
  }),
});
