import "server-only";
import { createHydrationHelpers } from "@trpc/react-query/rsc";
import { cache } from "react";
import { auth } from "~/server/auth/session.ts";
import { getDb } from "~/server/db/client.ts";
import { createTRPCContext } from "~/server/trpc/init.ts";
import { createCaller, type AppRouter } from "~/server/trpc/root.ts";
import { createQueryClient } from "./query-client.ts";

const createContext = cache(async () => {
  const session = await auth();
  return createTRPCContext({ db: getDb(), userId: session?.user.id ?? null });
});

const getQueryClient = cache(createQueryClient);

/** Server components call procedures through `api` and hand the results to the client with `HydrateClient`. */
export const { trpc: api, HydrateClient } = createHydrationHelpers<AppRouter>(createCaller(createContext), getQueryClient);
