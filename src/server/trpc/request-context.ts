import { auth } from "~/server/auth/session.ts";
import { startBackgroundWork } from "~/server/background.ts";
import { getDb } from "~/server/db/client.ts";
import { createTRPCContext, type TRPCContext } from "./init.ts";

/** One dashboard request's context: the process's database and the signed-in user. */
export async function createRequestContext(): Promise<TRPCContext> {
  const db = getDb();
  startBackgroundWork(db);
  return createTRPCContext({ db, userId: (await auth())?.user.id ?? null });
}
