import { redirect } from "next/navigation";
import { auth, type DashboardUser } from "~/server/auth/session.ts";

/** The signed-in user; signed-out visitors go to the sign-in page and come back to `returnTo`. */
export async function requireUser(returnTo: string): Promise<DashboardUser> {
  const session = await auth();
  if (!session) redirect(returnTo === "/" ? "/signin" : `/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  return session.user;
}
