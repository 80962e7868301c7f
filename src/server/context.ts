import type { Actor } from "~/server/auth/actor.ts";
import type { Db } from "~/server/db/client.ts";

/** What a service needs: the database, who asks, and the request's audit-log reason. */
export type ServiceContext = { db: Db; actor: Actor; auditReason?: string | null };
