import "server-only";
import { createHydrationHelpers } from "@trpc/react-query/rsc";
import { cache } from "react";
import { createRequestContext } from "~/server/trpc/request-context.ts";
import { createCaller, type AppRouter } from "~/server/trpc/root.ts";
import { createQueryClient } from "./query-client.ts";

const createContext = cache(createRequestContext);

const getQueryClient = cache(createQueryClient);

/** Server components call procedures through `api` and hand the results to the client with `HydrateClient`. */
export const { trpc: api, HydrateClient } = createHydrationHelpers<AppRouter>(createCaller(createContext), getQueryClient);
