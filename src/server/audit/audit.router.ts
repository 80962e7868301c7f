import { z } from "zod";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { listAuditLogForDashboard } from "./audit-dashboard.service.ts";
import { ZAuditLogDashboardQuerySchema } from "./audit.schema.ts";

export const auditRouter = createTRPCRouter({
  list: protectedProcedure
    .input(z.object({ guildId: ZSnowflakeSchema, query: ZAuditLogDashboardQuerySchema }))
    .query(({ ctx, input }) => listAuditLogForDashboard(ctx, input)),
});
