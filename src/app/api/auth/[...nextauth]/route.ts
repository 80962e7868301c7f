import NextAuth from "next-auth";
import { getAuthOptions } from "~/server/auth/next-auth.ts";

export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

function handler(req: Request, context: RouteContext): Promise<Response> {
  return NextAuth(getAuthOptions())(req, context) as Promise<Response>;
}

export { handler as GET, handler as POST };
