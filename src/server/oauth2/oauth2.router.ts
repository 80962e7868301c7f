import { z } from "zod";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { approveAuthorize, denyAuthorize, describeAuthorize } from "./authorize.service.ts";
import { deauthorizeApp, listAuthorizedApps } from "./authorized-apps.service.ts";

/** The authorize URL's query, as the page read it; the service decides from it again each time. */
const ZAuthorizeQuerySchema = z.record(z.string(), z.string().max(4096)).refine((query) => Object.keys(query).length <= 32, "Too many parameters.");

const ZAuthorizeChoicesSchema = z.object({
  guildId: ZSnowflakeSchema.nullish(),
  permissions: z
    .string()
    .regex(/^\d{1,20}$/)
    .nullish(),
  channelId: ZSnowflakeSchema.nullish(),
});

/** The consent page (/oauth2/authorize) and the account's Authorized apps. */
export const oauth2Router = createTRPCRouter({
  describe: protectedProcedure.input(z.object({ query: ZAuthorizeQuerySchema })).query(({ ctx, input }) => describeAuthorize(ctx, input.query)),
  approve: protectedProcedure
    .input(z.object({ query: ZAuthorizeQuerySchema, choices: ZAuthorizeChoicesSchema.optional() }))
    .mutation(({ ctx, input }) => approveAuthorize(ctx, input)),
  deny: protectedProcedure.input(z.object({ query: ZAuthorizeQuerySchema })).mutation(({ ctx, input }) => denyAuthorize(ctx, input.query)),
  authorizedApps: protectedProcedure.query(({ ctx }) => listAuthorizedApps(ctx)),
  deauthorize: protectedProcedure.input(z.object({ applicationId: ZSnowflakeSchema })).mutation(({ ctx, input }) => deauthorizeApp(ctx, input)),
});
