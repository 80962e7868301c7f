/** Audit log entries per page; the server prefetch and the client query must agree. */
export const AUDIT_PAGE_SIZE = 25;
