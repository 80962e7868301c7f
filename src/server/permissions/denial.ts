// A rule that can refuse someone is one pure function returning a Denial (or null): the
// service enforces it and the dashboard shows its reason beside the control it disables.
import { ApiError, type ErrorKey } from "~/server/errors.ts";
import type { GuildAccess } from "./guild-access.ts";
import { permissionLabel } from "./permission-labels.ts";
import { hasPermission } from "./permissions.ts";

/** Why an action is refused: the error REST answers and a sentence for people. */
export type Denial = { error: ErrorKey; reason: string };

/** What the dashboard shows beside a control: the denial's reason, or null where it is allowed. */
export function reasonOf(denial: Denial | null): string | null {
  return denial?.reason ?? null;
}

/** REST answers with the platform's own error; the reason is for the dashboard. */
export function enforce(denial: Denial | null): void {
  if (denial) throw new ApiError(denial.error);
}

/** What a reason says of why the actor holds less than their roles give: a timeout or pending screening. */
export type Standing = Pick<GuildAccess, "isTimedOut" | "isPending">;

/**
 * 50013 unless `held` (the actor's guild permissions, or theirs in one channel) has every
 * flag; `where` ends the reason ("in this channel").
 */
export function missingIn(access: Standing, held: bigint, flags: readonly bigint[], where = ""): Denial | null {
  const lacking = flags.filter((flag) => !hasPermission(held, flag));
  if (lacking.length === 0) return null;
  const names = lacking.map(permissionLabel).join(" and ");
  const why = access.isTimedOut ? " (you are timed out)" : access.isPending ? " (you have not completed membership screening)" : "";
  return { error: "MISSING_PERMISSIONS", reason: `Needs ${names}${where}${why}.` };
}

/** 50013 unless the actor's guild-level permissions have every flag. */
export function missing(access: GuildAccess, ...flags: bigint[]): Denial | null {
  return missingIn(access, access.permissions, flags);
}
