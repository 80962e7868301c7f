import { getServerSession } from "next-auth";
import { cache } from "react";
import { processRuntime } from "~/server/serving/process-serving.ts";
import { getAuthOptions } from "./next-auth.ts";

export type DashboardUser = { id: string; username: string; displayName: string; email: string | null };

/**
 * The signed-in dashboard user for this request, or null. The user is read back from the
 * database so a session outliving its account (deleted user, reset database) counts as
 * signed out instead of failing later.
 */
export const auth = cache(async (): Promise<{ user: DashboardUser } | null> => {
  const session = await getServerSession(getAuthOptions());
  const id = session?.user.id;
  if (!id) return null;
  const user = await processRuntime().db.user.findUnique({ where: { id }, select: { id: true, username: true, globalName: true, email: true, bot: true } });
  if (!user || user.bot) return null;
  return { user: { id: user.id, username: user.username, displayName: user.globalName ?? user.username, email: user.email } };
});
