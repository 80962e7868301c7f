import { guildRouter } from "~/server/guilds/guild.router.ts";
import { createCallerFactory, createTRPCRouter } from "./init.ts";

export const appRouter = createTRPCRouter({
  guild: guildRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
