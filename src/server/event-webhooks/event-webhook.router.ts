import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZApplicationIdInputSchema } from "~/server/applications/application.schema.ts";
import { changeOwnEventWebhookSettings, getOwnEventWebhookSettings, listOwnEventWebhookDeliveries } from "./event-webhook-dashboard.service.ts";
import { ZEventWebhookLogInputSchema, ZEventWebhookSettingsInputSchema } from "./event-webhook.schema.ts";

/** An owned application's event webhooks (application.eventWebhooks): settings and delivery log. */
export const eventWebhookRouter = createTRPCRouter({
  get: protectedProcedure.input(ZApplicationIdInputSchema).query(({ ctx, input }) => getOwnEventWebhookSettings(ctx, input)),
  change: protectedProcedure.input(ZEventWebhookSettingsInputSchema).mutation(({ ctx, input }) => changeOwnEventWebhookSettings(ctx, input)),
  deliveries: protectedProcedure.input(ZEventWebhookLogInputSchema).query(({ ctx, input }) => listOwnEventWebhookDeliveries(ctx, input)),
});
