import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createRequestContext } from "~/server/trpc/request-context.ts";
import { appRouter } from "~/server/trpc/root.ts";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: createRequestContext,
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path ?? "?"} failed`, error.cause ?? error);
    },
  });
}

export { handler as GET, handler as POST };
