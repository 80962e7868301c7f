import { env } from "~/env.ts";
import type { Db } from "~/server/db/client.ts";
import { hearOtherProcesses } from "~/server/events/fanout.ts";
import { startOutboxRetention } from "~/server/events/outbox-retention.ts";
import { startStoredFileSweep } from "~/server/images/file-removal.ts";
import { startBanMessageDeletions } from "~/server/members/ban-message-deletion.ts";
import { startInviteSweep } from "~/server/invites/invite-sweep.ts";
import { startLobbySweep } from "~/server/lobbies/lobby-sweep.ts";
import { startTargetUsersJobs } from "~/server/invites/target-users-job.ts";
import { startSearchIndexBuilds } from "~/server/messages/message-search-index.ts";

// Once per process, from the first REST or dashboard request's path (getDispatcher,
// createRequestContext): under `npm start` both run in one process, under `next start` and
// `next dev` too, and server.ts builds the dispatcher before it listens.
const globalForWork = globalThis as unknown as { guildhallBackground?: true };

/**
 * What a serving process does besides answering: outbox retention, the expired-invite sweep,
 * target-users jobs, message search index builds, idle lobby shutdown, removing deleted files, deleting
 * banned users' messages and, without Redis, hearing other processes.
 */
export function startBackgroundWork(db: Db): void {
  if (globalForWork.guildhallBackground) return;
  globalForWork.guildhallBackground = true;
  startOutboxRetention(db, env().EVENT_RETENTION_DAYS);
  startInviteSweep(db);
  startTargetUsersJobs(db);
  startSearchIndexBuilds(db);
  startLobbySweep(db);
  startStoredFileSweep(db);
  startBanMessageDeletions(db);
  hearOtherProcesses(db);
}
