import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { auth } from "~/server/auth/session.ts";
import { getDb } from "~/server/db/client.ts";
import { createTRPCContext } from "~/server/trpc/init.ts";
import { appRouter } from "~/server/trpc/root.ts";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async () => createTRPCContext({ db: getDb(), userId: (await auth())?.user.id ?? null }),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path ?? "?"} failed`, error.cause ?? error);
    },
  });
}

export { handler as GET, handler as POST };
