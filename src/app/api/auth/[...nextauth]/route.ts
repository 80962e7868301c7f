import NextAuth from "next-auth";
import { getAuthOptions } from "~/server/auth/next-auth.ts";

export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// next-auth 4 types the App Router form of NextAuth(options) as `any`.
const createHandler = NextAuth as unknown as (options: ReturnType<typeof getAuthOptions>) => (req: Request, context: RouteContext) => Promise<Response>;

function handler(req: Request, context: RouteContext): Promise<Response> {
  return createHandler(getAuthOptions())(req, context);
}

export { handler as GET, handler as POST };
