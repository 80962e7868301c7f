import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { accessIn, loadGuildState } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { isInviteLive } from "./invite.dto.ts";
import { TARGET_USERS_FILE_MAX_BYTES } from "./invite.schema.ts";
import { problemList, readTargetUsersCsv, TARGET_USERS_HEADER } from "./target-users-csv.ts";
import { insertTargetUsers, JOB_STATUS, runTargetUsersJob, storeTargetUsersJob } from "./target-users-job.ts";

type Who = "inviter or MANAGE_GUILD" | "inviter, MANAGE_GUILD or VIEW_AUDIT_LOG";

/** A live invite the caller may work on: its inviter, or a member with the named permissions (else 50013). */
async function loadInviteFor(ctx: ServiceContext, code: string, who: Who) {
  const invite = await ctx.db.invite.findUnique({ where: { code } });
  if (!invite || !isInviteLive(invite, new Date())) throw new ApiError("UNKNOWN_INVITE");
  if (invite.inviterId === ctx.actor.userId) return invite;
  const access = await accessIn(await loadGuildState(ctx.db, invite.guildId, ctx.actor.userId), ctx.actor);
  const allowed = hasPermission(access.permissions, P.ManageGuild) || (who !== "inviter or MANAGE_GUILD" && hasPermission(access.permissions, P.ViewAuditLog));
  if (!allowed) throw new ApiError("MISSING_PERMISSIONS");
  return invite;
}

/** GET /invites/{code}/target-users: the list as CSV, `user_id` then one id per line. */
export async function getTargetUsersCsv(ctx: ServiceContext, input: { code: string }): Promise<string> {
  await loadInviteFor(ctx, input.code, "inviter, MANAGE_GUILD or VIEW_AUDIT_LOG");
  const lines = [TARGET_USERS_HEADER];
  let after = "";
  for (;;) {
    const page = await ctx.db.inviteTargetUser.findMany({ where: { code: input.code, userId: { gt: after } }, orderBy: { userId: "asc" }, take: 5000 });
    lines.push(...page.map((row) => row.userId));
    if (page.length < 5000) return `${lines.join("\n")}\n`;
    after = page.at(-1)!.userId;
  }
}

/**
 * PUT /invites/{code}/target-users: refuses a file past TARGET_USERS_FILE_MAX_BYTES (413)
 * and one with lines that hold no user id (400, `target_users_file` naming each line's
 * problem, as the spec has it), a check of its lines alone, cheap and a slice at a time so
 * other requests go on meanwhile; then stores it and answers. Everything per id is the job's:
 * it checks the ids are users' and replaces the invite's list in the background (status
 * PROCESSING, then COMPLETED, or FAILED naming the unknown ids' lines).
 */
export async function uploadTargetUsers(ctx: ServiceContext, input: { code: string; file: Buffer }): Promise<void> {
  if (input.file.length > TARGET_USERS_FILE_MAX_BYTES) throw new ApiError("REQUEST_TOO_LARGE");
  await loadInviteFor(ctx, input.code, "inviter or MANAGE_GUILD");
  const problems = problemList();
  let total = 0;
  for await (const entries of readTargetUsersCsv([input.file])) {
    for (const entry of entries) {
      if ("problem" in entry) problems.note(entry.problem);
      else total += 1;
    }
  }
  if (problems.count > 0) throw new ApiError("INVALID_FORM_BODY", { extra: { target_users_file: problems.lines() } });
  await storeTargetUsersJob(ctx.db, { code: input.code, file: input.file, totalUsers: total });
  // Started here at once; the background poll takes over the job if this process stops.
  void runTargetUsersJob(ctx.db, input.code);
}

/** GET /invites/{code}/target-users/job-status: UNSPECIFIED until a file was uploaded. */
export async function getTargetUsersJobStatus(ctx: ServiceContext, input: { code: string }) {
  const invite = await loadInviteFor(ctx, input.code, "inviter, MANAGE_GUILD or VIEW_AUDIT_LOG");
  const job = await ctx.db.targetUsersJob.findUnique({ where: { code: input.code } });
  // Spec 2.1 types created_at as a timestamp and error_message as a string: before any
  // upload they are the invite's creation and empty.
  return {
    status: job?.status ?? JOB_STATUS.UNSPECIFIED,
    total_users: job?.totalUsers ?? 0,
    processed_users: job?.processedUsers ?? 0,
    created_at: (job?.createdAt ?? invite.createdAt).toISOString(),
    completed_at: job?.completedAt?.toISOString() ?? null,
    error_message: job?.errorMessage ?? "",
  };
}

/** PUT, DELETE, bulk-add and bulk-delete of target users (the later edits of spec 4.1): inviter or MANAGE_GUILD; 10013 for unknown users. */
export async function editTargetUsers(ctx: ServiceContext, input: { code: string; userIds: readonly string[]; add: boolean }): Promise<void> {
  await loadInviteFor(ctx, input.code, "inviter or MANAGE_GUILD");
  const userIds = [...new Set(input.userIds)];
  if (!input.add) {
    await runChange(ctx, ({ tx }) => tx.inviteTargetUser.deleteMany({ where: { code: input.code, userId: { in: userIds } } }));
    return;
  }
  const known = await ctx.db.user.count({ where: { id: { in: userIds } } });
  if (known !== userIds.length) throw new ApiError("UNKNOWN_USER");
  await runChange(ctx, ({ tx }) => insertTargetUsers(tx, input.code, userIds));
}
