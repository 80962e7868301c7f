import { z } from "zod";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflake } from "~/server/validation/fields.ts";
import { ZAuditLogQuerySchema } from "./audit.schema.ts";
import { getGuildAuditLog } from "./audit.service.ts";

export const auditRouter = createTRPCRouter({
  list: protectedProcedure.input(z.object({ guildId: ZSnowflake, query: ZAuditLogQuerySchema })).query(({ ctx, input }) => getGuildAuditLog(ctx, input)),
});
