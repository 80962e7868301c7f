// How many commands a registry holds of each type, and how many it may create in a day: pure,
// so the registry enforces them and the dashboard shows how full a scope is.
import { ApplicationCommandType, ApplicationFlags } from "discord-api-types/v10";
import { invalidField, type ApiError } from "~/server/errors.ts";
import type { Denial } from "~/server/permissions/denial.ts";

/** Per scope (global, or one guild's): 100 chat input, 15 user and 15 message commands (spec 8), one entry point (global only). */
export const COMMAND_LIMITS: Readonly<Record<number, number>> = {
  [ApplicationCommandType.ChatInput]: 100,
  [ApplicationCommandType.User]: 15,
  [ApplicationCommandType.Message]: 15,
  [ApplicationCommandType.PrimaryEntryPoint]: 1,
};

/** New commands per scope per day; overwriting or keeping one spends nothing. */
export const DAILY_COMMAND_CREATES = 200;

/** Commands of each type a scope holds (or would hold). */
export type CommandCounts = ReadonlyMap<number, number>;

const TYPE_NAMES: Readonly<Record<number, string>> = {
  [ApplicationCommandType.ChatInput]: "slash",
  [ApplicationCommandType.User]: "user",
  [ApplicationCommandType.Message]: "message",
  [ApplicationCommandType.PrimaryEntryPoint]: "entry point",
};

/**
 * 30032 when a scope holding `counts` may not take one more of each type in `adding` (a
 * create), or, with nothing to add, when `counts` (a bulk overwrite's whole result) is past a limit.
 */
export function commandLimitDenial(counts: CommandCounts, adding: readonly number[]): Denial | null {
  const types = adding.length > 0 ? adding : [...counts.keys()];
  for (const type of types) {
    const limit = COMMAND_LIMITS[type] ?? 0;
    const total = (counts.get(type) ?? 0) + adding.filter((added) => added === type).length;
    if (total > limit) return { error: "MAX_APPLICATION_COMMANDS", reason: `A scope holds at most ${limit} ${TYPE_NAMES[type] ?? "such"} commands.` };
  }
  return null;
}

/**
 * An entry point command launches an Activity: only an application with the EMBEDDED flag may
 * hold one, as on the platform (50035 at the body's `type`, `<index>.type` in a bulk; the code is
 * unverified). `types` are the body's, in order.
 */
export function entryPointError(applicationFlags: number, types: readonly number[], bulk: boolean): ApiError | null {
  if ((applicationFlags & ApplicationFlags.Embedded) !== 0) return null;
  const index = types.indexOf(ApplicationCommandType.PrimaryEntryPoint);
  if (index === -1) return null;
  return invalidField(
    bulk ? [index, "type"] : ["type"],
    "APPLICATION_COMMAND_TYPE_INVALID",
    "Only an application with Activities may have an entry point command.",
  );
}
