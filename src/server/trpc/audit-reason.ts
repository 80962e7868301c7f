import { z } from "zod";
import { AUDIT_REASON_MAX } from "~/server/audit/audit.schema.ts";
import type { ServiceContext } from "~/server/context.ts";

/** The reason a moderator gives in the dashboard: input field(s) to spread into a procedure's input. */
export const ZAuditReasonInputSchema = { reason: z.string().trim().max(AUDIT_REASON_MAX).optional() };

/** The context with the reason recorded on the change's audit entry, as REST's X-Audit-Log-Reason is. */
export function withAuditReason<C extends ServiceContext>(ctx: C, reason: string | undefined): C {
  return { ...ctx, auditReason: reason || null };
}
