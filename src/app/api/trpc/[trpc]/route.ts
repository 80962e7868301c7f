import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createRequestContext } from "~/server/trpc/request-context.ts";
import { appRouter } from "~/server/trpc/root.ts";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    // Unexpected errors are logged, with the id the dashboard shows, where they are replaced (server/trpc/init.ts).
    createContext: createRequestContext,
  });
}

export { handler as GET, handler as POST };
