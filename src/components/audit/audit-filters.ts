/** Audit log entries per page; the server prefetch and the client query must agree. */
export const AUDIT_PAGE_SIZE = 25;

/** The filters of the audit log page, as the list query takes them. */
export type AuditFilters = { action_type?: string; user_id?: string; target_id?: string };

const SNOWFLAKE = /^\d{15,21}$/;

/** The filters a shared link carries (?action=22&user=…&target=…); malformed ones are dropped. */
export function filtersFromSearchParams(params: Record<string, string | string[] | undefined>): AuditFilters {
  const one = (key: string) => {
    const value = params[key];
    return typeof value === "string" ? value : undefined;
  };
  const action = one("action");
  const user = one("user");
  const target = one("target");
  return {
    ...(action && /^\d{1,5}$/.test(action) && { action_type: action }),
    ...(user && SNOWFLAKE.test(user) && { user_id: user }),
    ...(target && SNOWFLAKE.test(target) && { target_id: target }),
  };
}
