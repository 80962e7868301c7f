import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZOnboardingBodySchema } from "./onboarding.schema.ts";
import { getOnboarding, listOnboardingChannels, modifyOnboarding } from "./onboarding.service.ts";

/** The dashboard's Onboarding page, over the services REST uses. */
export const onboardingRouter = createTRPCRouter({
  get: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => getOnboarding(ctx, input)),
  /** Each channel onboarding can use, with whether @everyone can view and send in it (the rule's predicate). */
  channels: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listOnboardingChannels(ctx, input)),
  put: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ body: ZOnboardingBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => modifyOnboarding(withAuditReason(ctx, input.reason), input)),
});
