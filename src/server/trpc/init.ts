import { randomBytes } from "node:crypto";
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { dashboardActor, type Actor } from "~/server/auth/actor.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, fromZodError, type ErrorTree } from "~/server/errors.ts";
import { platformErrorOf } from "~/server/platform-error.ts";
import type { CallRecorder } from "~/server/twin/call-recorder.ts";
import { recordActivity } from "~/server/users/activity.ts";
import { refuseNulCharacters } from "~/server/validation/text.ts";

/**
 * The dashboard's request context: the database, the signed-in user if any, and in test mode
 * the twin's recorder of applications' calls (the Inspector's; absent or null otherwise).
 */
export type TRPCContext = { db: Db; userId: string | null; recorder?: CallRecorder | null };

export function createTRPCContext(input: TRPCContext): TRPCContext {
  return { db: input.db, userId: input.userId, recorder: input.recorder ?? null };
}

/**
 * The platform error the UI can switch on: its numeric code, per-field errors, and the
 * line problems of a refused target-users file (the REST body's `target_users_file`).
 */
type DomainErrorData = { domainCode: number | null; fieldErrors: ErrorTree | null; lineErrors: string[] | null };

const NO_DOMAIN: DomainErrorData = { domainCode: null, fieldErrors: null, lineErrors: null };

function lineErrorsOf(error: ApiError): string[] | null {
  const lines = error.extra?.target_users_file;
  return Array.isArray(lines) ? lines.map(String) : null;
}

/**
 * A failure nobody meant (a bug, a database fault): its text may name files, queries or
 * internals, so the dashboard gets a generic message, and the id in it finds the cause in
 * the server log.
 */
class UnexpectedError extends TRPCError {
  constructor(original: TRPCError, path: string | undefined) {
    const id = randomBytes(4).toString("hex");
    console.error(`[trpc] ${path ?? "request"} failed (error id ${id})`, original.cause ?? original);
    super({ code: "INTERNAL_SERVER_ERROR", message: `Something went wrong (error id ${id})`, cause: original.cause ?? original });
  }
}

/** Errors raised on purpose carry a deliberate code or a domain error; anything else ends as INTERNAL_SERVER_ERROR. */
function isUnexpected(error: TRPCError): boolean {
  return error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof ApiError) && !(error instanceof UnexpectedError);
}

const t = initTRPC.context<TRPCContext>().create({
  // Live streams (server-sent events) ping while idle; a browser that hears nothing for longer
  // takes the connection for dead and reconnects, with the last event id it had.
  sse: { ping: { enabled: true, intervalMs: 5_000 }, client: { reconnectAfterInactivityMs: 15_000 } },
  errorFormatter({ shape, error, input, path }) {
    // Procedures' failures were replaced already (domainErrors); this catches the rest, such as a context that failed.
    if (isUnexpected(error)) return { ...shape, message: new UnexpectedError(error, path).message, data: { ...shape.data, stack: undefined, ...NO_DOMAIN } };
    const cause = error.cause;
    let domain: DomainErrorData = NO_DOMAIN;
    if (cause instanceof ApiError) domain = { domainCode: cause.code, fieldErrors: cause.errors ?? null, lineErrors: lineErrorsOf(cause) };
    else if (cause instanceof ZodError) {
      const apiError = fromZodError(cause, input);
      domain = { domainCode: apiError.code, fieldErrors: apiError.errors ?? null, lineErrors: null };
    }
    return { ...shape, data: { ...shape.data, ...domain } };
  },
});

/**
 * Domain errors keep their meaning over tRPC, translated as REST translates them
 * (platformErrorOf): the error table's tRPC code and message.
 * Unexpected ones are logged and replaced, for the server caller and HTTP alike.
 */
const domainErrors = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (result.ok) return result;
  const { error } = result;
  const cause = platformErrorOf(error.cause);
  if (cause) return { ...result, error: new TRPCError({ code: cause.trpcCode, message: cause.message, cause }) };
  if (isUnexpected(error)) return { ...result, error: new UnexpectedError(error, path) };
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
/** No input may hold a NUL character, as over REST (refuseNulCharacters). */
const textInput = t.middleware(async ({ next, getRawInput }) => {
  refuseNulCharacters(await getRawInput());
  return next();
});

export const publicProcedure = t.procedure.use(domainErrors).use(textInput);

/** Signed-in dashboard users; the actor is what services check permissions for. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.userId) throw new TRPCError({ code: "UNAUTHORIZED" });
  const actor: Actor = dashboardActor(ctx.userId);
  recordActivity(ctx.db, ctx.userId);
  return next({ ctx: { db: ctx.db, actor, auditReason: null as string | null } });
});
