import { auth } from "~/server/auth/session.ts";
import { getDb } from "~/server/db/client.ts";
import { createTRPCContext, type TRPCContext } from "./init.ts";

/** One dashboard request's context: the process's database and the signed-in user. */
export async function createRequestContext(): Promise<TRPCContext> {
  return createTRPCContext({ db: getDb(), userId: (await auth())?.user.id ?? null });
}
