import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { dashboardActor, type Actor } from "~/server/auth/actor.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, fromZodError, type ErrorTree } from "~/server/errors.ts";
import { recordActivity } from "~/server/users/activity.ts";

/** The dashboard's request context: the database and the signed-in user, if any. */
export type TRPCContext = { db: Db; userId: string | null };

export function createTRPCContext(input: { db: Db; userId: string | null }): TRPCContext {
  return { db: input.db, userId: input.userId };
}

/**
 * The platform error the UI can switch on: its numeric code, per-field errors, and the
 * line problems of a refused target-users file (the REST body's `target_users_file`).
 */
type DomainErrorData = { domainCode: number | null; fieldErrors: ErrorTree | null; lineErrors: string[] | null };

function lineErrorsOf(error: ApiError): string[] | null {
  const lines = error.extra?.target_users_file;
  return Array.isArray(lines) ? lines.map(String) : null;
}

const t = initTRPC.context<TRPCContext>().create({
  errorFormatter({ shape, error, input }) {
    const cause = error.cause;
    let domain: DomainErrorData = { domainCode: null, fieldErrors: null, lineErrors: null };
    if (cause instanceof ApiError) domain = { domainCode: cause.code, fieldErrors: cause.errors ?? null, lineErrors: lineErrorsOf(cause) };
    else if (cause instanceof ZodError) {
      const apiError = fromZodError(cause, input);
      domain = { domainCode: apiError.code, fieldErrors: apiError.errors ?? null, lineErrors: null };
    }
    return { ...shape, data: { ...shape.data, ...domain } };
  },
});

/** Domain errors keep their meaning over tRPC: the error table's tRPC code and message. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof ApiError) {
    const cause = result.error.cause;
    return { ...result, error: new TRPCError({ code: cause.trpcCode, message: cause.message, cause }) };
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(domainErrors);

/** Signed-in dashboard users; the actor is what services check permissions for. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.userId) throw new TRPCError({ code: "UNAUTHORIZED" });
  const actor: Actor = dashboardActor(ctx.userId);
  recordActivity(ctx.db, ctx.userId);
  return next({ ctx: { db: ctx.db, actor, auditReason: null as string | null } });
});
