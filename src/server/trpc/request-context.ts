import { auth } from "~/server/auth/session.ts";
import { processRuntime } from "~/server/runtime/next-runtime.ts";
import { createTRPCContext, type TRPCContext } from "./init.ts";

/** One dashboard request's context: the process's database and the signed-in user. */
export async function createRequestContext(): Promise<TRPCContext> {
  return createTRPCContext({ db: processRuntime().db, userId: (await auth())?.user.id ?? null });
}
