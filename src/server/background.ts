import { env } from "~/env.ts";
import type { Db } from "~/server/db/client.ts";
import type { EventFanout } from "~/server/events/fanout.ts";
import { startOutboxRetention } from "~/server/events/outbox-retention.ts";
import { startEventWebhooks } from "~/server/event-webhooks/event-webhook-jobs.ts";
import { startStoredFileSweep } from "~/server/images/file-removal.ts";
import { startBanMessageDeletions } from "~/server/members/ban-message-deletion.ts";
import { startInviteSweep } from "~/server/invites/invite-sweep.ts";
import { startLobbySweep } from "~/server/lobbies/lobby-sweep.ts";
import { startTargetUsersJobs } from "~/server/invites/target-users-job.ts";
import { startSearchIndexBuilds } from "~/server/messages/message-search-index.ts";
import { startThreadAutoArchive } from "~/server/threads/thread-auto-archive.ts";
import type { Stop } from "~/server/repeat.ts";

/**
 * What a serving process does besides answering: outbox retention, the expired-invite sweep,
 * target-users jobs, message search index builds, idle lobby shutdown, removing deleted files, deleting
 * banned users' messages, archiving inactive threads, sending event webhooks and, without Redis, hearing other processes. Started by the runtime
 * of a server (runtime/runtime.ts), never from a request; returns the function that stops it all.
 */
export function startBackgroundWork(db: Db, events: EventFanout): Stop {
  const stops = [
    startOutboxRetention(db, env().EVENT_RETENTION_DAYS),
    startInviteSweep(db),
    startTargetUsersJobs(db),
    startSearchIndexBuilds(db),
    startLobbySweep(db),
    startStoredFileSweep(db),
    startBanMessageDeletions(db),
    startThreadAutoArchive(db),
    startEventWebhooks(db),
    events.hearOtherProcesses(),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
