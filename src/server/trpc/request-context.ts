import { auth } from "~/server/auth/session.ts";
import { processServing } from "~/server/serving/process-serving.ts";
import { createTRPCContext, type TRPCContext } from "./init.ts";

/** One dashboard request's context: the process's database and (in test mode) its twin's recorder, and the signed-in user. */
export async function createRequestContext(): Promise<TRPCContext> {
  const { runtime, twin } = processServing();
  return createTRPCContext({ db: runtime.db, userId: (await auth())?.user.id ?? null, recorder: twin?.recorder });
}
