// Where a caller's commands live: its own application's global registry, or one guild's that
// the application was installed in with applications.commands.
import { OAuth2Scopes } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { GLOBAL_SCOPE } from "./command.dto.ts";

/** One registry: `key` is the guild's id, or GLOBAL_SCOPE. */
export type CommandScope = { applicationId: string; guildId: string | null; key: string };

/** The scope of `input` for its own application's token (20012 for another application's id). */
export async function commandScopeFor(ctx: ServiceContext, input: { applicationId: string; guildId?: string }): Promise<CommandScope> {
  if (ctx.actor.applicationId !== input.applicationId) throw new ApiError("NOT_AUTHORIZED_FOR_APPLICATION");
  if (input.guildId === undefined) return { applicationId: input.applicationId, guildId: null, key: GLOBAL_SCOPE };
  await requireCommandsInstall(ctx.db, input.applicationId, input.guildId);
  return { applicationId: input.applicationId, guildId: input.guildId, key: input.guildId };
}

/** Whether an install's scopes let its application hold commands in the guild (an OAuth2 install with bot records applications.commands too). */
export function holdsCommands(scopes: readonly string[]): boolean {
  return scopes.includes(OAuth2Scopes.ApplicationsCommands);
}

/** Whether the application was installed in the guild with applications.commands. */
export async function hasCommandsInstall(db: Db, applicationId: string, guildId: string): Promise<boolean> {
  const integration = await db.integration.findUnique({ where: { guildId_applicationId: { guildId, applicationId } }, select: { scopes: true } });
  return integration ? holdsCommands(integration.scopes.split(" ")) : false;
}

/** 50001 where the application may hold no commands: a guild it is not in with that scope (or no guild at all: no one learns which). */
export async function requireCommandsInstall(db: Db, applicationId: string, guildId: string): Promise<void> {
  if (!(await hasCommandsInstall(db, applicationId, guildId))) throw new ApiError("MISSING_ACCESS");
}
