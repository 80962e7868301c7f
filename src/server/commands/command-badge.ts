// The application flag that says it has global commands (APPLICATION_COMMAND_BADGE), kept true
// by every write of the global registry.
import { ApplicationFlags } from "discord-api-types/v10";
import type { Change } from "~/server/events/change.ts";
import { InternalEvents } from "~/server/events/event-map.ts";
import type { CommandScope } from "./command-scope.ts";

const BADGE = ApplicationFlags.ApplicationCommandBadge;

/** Sets or clears the badge after a global write, and drops the cached application when it flips. */
export async function syncCommandBadge(change: Change, scope: CommandScope): Promise<void> {
  if (scope.guildId !== null) return;
  const { tx, emit } = change;
  const app = await tx.application.findUniqueOrThrow({ where: { id: scope.applicationId }, select: { flags: true } });
  const commands = await tx.applicationCommand.count({ where: { applicationId: scope.applicationId, scope: scope.key } });
  const flags = commands > 0 ? app.flags | BADGE : app.flags & ~BADGE;
  if (flags === app.flags) return;
  await tx.application.update({ where: { id: scope.applicationId }, data: { flags } });
  await emit(InternalEvents.ApplicationUpdated, { application_id: scope.applicationId });
}
