import { env } from "~/env.ts";
import type { Db } from "~/server/db/client.ts";
import type { EventFanout } from "~/server/events/fanout.ts";
import { pruneOutbox, startOutboxRetention } from "~/server/events/outbox-retention.ts";
import { pruneDeliveryLog, runEventWebhooks, startEventWebhooks } from "~/server/event-webhooks/event-webhook-jobs.ts";
import type { Gateway } from "~/server/gateway/gateway.ts";
import { startStoredFileSweep, sweepStoredFiles } from "~/server/images/file-removal.ts";
import { runDueBanMessageDeletions, startBanMessageDeletions } from "~/server/members/ban-message-deletion.ts";
import { startInviteSweep, sweepExpiredInvites } from "~/server/invites/invite-sweep.ts";
import { startLobbySweep, sweepIdleLobbies } from "~/server/lobbies/lobby-sweep.ts";
import { runDueTargetUsersJobs, startTargetUsersJobs } from "~/server/invites/target-users-job.ts";
import { runDueSearchIndexBuilds, startSearchIndexBuilds } from "~/server/messages/message-search-index.ts";
import { startThreadAutoArchive, sweepInactiveThreads } from "~/server/threads/thread-auto-archive.ts";
import type { Stop } from "~/server/repeat.ts";

/**
 * What a serving process does besides answering: outbox retention, the expired-invite sweep,
 * target-users jobs, message search index builds, idle lobby shutdown, removing deleted files, deleting
 * banned users' messages, archiving inactive threads, sending event webhooks and, without Redis, hearing other processes. Started with
 * a server's runtime (serving/serving.ts), never from a request; returns the function that stops it all.
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

/** What one turn of every job did: how many of each it ended or took up. */
export type DueWork = {
  target_users_jobs: number;
  search_index_builds: number;
  ban_message_deletions: number;
  invites: number;
  lobbies: number;
  threads: number;
  files: number;
  stored_events: number;
  gateway_sessions: number;
  voice_states: number;
};

/**
 * Runs every job above once, now, and resolves when all have run (a test twin's clock moved, so
 * whatever came due is done when its call answers). Timers go on as they were: every job is
 * safe to run beside itself. Lease-held jobs first, then the expiries (their events), the
 * files they freed, event webhooks, the outbox's retention, and last the gateway's
 * housekeeping, which touches connected sessions before sweeping, then waits for the events
 * of all this to reach their sessions.
 */
export async function runDueWork(db: Db, gateway: Gateway | null): Promise<DueWork> {
  const target_users_jobs = await runDueTargetUsersJobs(db);
  const search_index_builds = await runDueSearchIndexBuilds(db);
  const ban_message_deletions = await runDueBanMessageDeletions(db);
  const invites = await sweepExpiredInvites(db);
  const lobbies = await sweepIdleLobbies(db);
  const threads = await sweepInactiveThreads(db);
  const files = await sweepStoredFiles(db);
  await runEventWebhooks(db);
  await pruneDeliveryLog(db, new Date());
  const stored_events = await pruneOutbox(db, { now: new Date(), retentionDays: env().EVENT_RETENTION_DAYS });
  const housekept = gateway ? await gateway.housekeep() : { sessions: 0, voiceStates: 0 };
  return {
    target_users_jobs,
    search_index_builds,
    ban_message_deletions,
    invites,
    lobbies,
    threads,
    files,
    stored_events,
    gateway_sessions: housekept.sessions,
    voice_states: housekept.voiceStates,
  };
}
