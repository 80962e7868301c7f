import { ok, route } from "~/server/rest/route.ts";
import { ZAuditLogQuerySchema } from "./audit.schema.ts";
import { getGuildAuditLog } from "./audit.service.ts";

export const auditRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/audit-logs",
    auth: "bot",
    query: ZAuditLogQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await getGuildAuditLog(ctx, { guildId: params.guildId, query })),
  }),
];
