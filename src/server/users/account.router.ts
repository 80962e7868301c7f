import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { getAccountSettings, updateAccountSettings } from "./account.service.ts";
import { ZAccountSettingsSchema } from "./user.schema.ts";

/** The signed-in user's account settings (the account menu's Account). */
export const accountRouter = createTRPCRouter({
  get: protectedProcedure.query(({ ctx }) => getAccountSettings(ctx)),
  update: protectedProcedure.input(ZAccountSettingsSchema).mutation(({ ctx, input }) => updateAccountSettings(ctx, input)),
});
