import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { eventWebhookRouter } from "~/server/event-webhooks/event-webhook.router.ts";
import {
  createOwnApplication,
  editOwnApplication,
  getOwnApplication,
  listOwnApplications,
  resetOwnBotToken,
  setOwnApplicationIntent,
} from "./application-dashboard.service.ts";
import { listInstallGuilds, resetOwnClientSecret, setOwnRedirectUris } from "./application-oauth2.service.ts";
import {
  ZApplicationCreateBodySchema,
  ZApplicationEditBodySchema,
  ZApplicationIdInputSchema,
  ZApplicationIntentInputSchema,
  ZApplicationRedirectUrisInputSchema,
} from "./application.schema.ts";

/** The signed-in user's own applications (the account menu's Applications). */
export const applicationRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listOwnApplications(ctx)),
  get: protectedProcedure.input(ZApplicationIdInputSchema).query(({ ctx, input }) => getOwnApplication(ctx, input)),
  create: protectedProcedure.input(ZApplicationCreateBodySchema).mutation(({ ctx, input }) => createOwnApplication(ctx, input)),
  edit: protectedProcedure
    .input(ZApplicationIdInputSchema.extend({ body: ZApplicationEditBodySchema }))
    .mutation(({ ctx, input }) => editOwnApplication(ctx, input)),
  resetToken: protectedProcedure.input(ZApplicationIdInputSchema).mutation(({ ctx, input }) => resetOwnBotToken(ctx, input)),
  setIntent: protectedProcedure.input(ZApplicationIntentInputSchema).mutation(({ ctx, input }) => setOwnApplicationIntent(ctx, input)),
  resetClientSecret: protectedProcedure.input(ZApplicationIdInputSchema).mutation(({ ctx, input }) => resetOwnClientSecret(ctx, input)),
  setRedirectUris: protectedProcedure.input(ZApplicationRedirectUrisInputSchema).mutation(({ ctx, input }) => setOwnRedirectUris(ctx, input)),
  /** Guilds the owner manages, for the install link generator. */
  installGuilds: protectedProcedure.input(ZApplicationIdInputSchema).query(({ ctx, input }) => listInstallGuilds(ctx, input)),
  eventWebhooks: eventWebhookRouter,
});
