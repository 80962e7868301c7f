import { AuditLogEvent } from "discord-api-types/v10";
import { z } from "zod";
import { queryInt, ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** The longest audit-log reason: the X-Audit-Log-Reason header's limit, and the dashboard's. */
export const AUDIT_REASON_MAX = 512;
const AUDIT_LOG_LIMIT_MAX = 100;
export const AUDIT_LOG_LIMIT_DEFAULT = 50;
const ACTION_TYPES = Object.values(AuditLogEvent).filter((v): v is number => typeof v === "number");

/** GET /guilds/{guild.id}/audit-logs query. */
export const ZAuditLogQuerySchema = z.object({
  user_id: ZSnowflakeSchema.optional(),
  action_type: queryInt(0, 2 ** 16)
    .refine((v) => ACTION_TYPES.includes(v), { message: "Unknown audit log action type.", params: { code: "BASE_TYPE_CHOICES" } })
    .optional(),
  before: ZSnowflakeSchema.optional(),
  after: ZSnowflakeSchema.optional(),
  limit: queryInt(1, AUDIT_LOG_LIMIT_MAX).optional(),
});
export type TAuditLogQuery = z.output<typeof ZAuditLogQuerySchema>;

/**
 * The dashboard's query: the endpoint's, and `target_id`, which the platform's documented
 * endpoint does not take, so REST keeps to the documented filters.
 */
export const ZAuditLogDashboardQuerySchema = ZAuditLogQuerySchema.extend({ target_id: ZSnowflakeSchema.optional() });
export type TAuditLogDashboardQuery = z.output<typeof ZAuditLogDashboardQuerySchema>;
