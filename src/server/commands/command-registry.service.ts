// The registry's writes and reads: one application's commands in one scope (global or a guild),
// with the platform's semantics: a create of an existing name and type is an upsert keeping the
// id, a bulk overwrite keeps the ids it matches, only new commands spend the daily quota, and a
// command renamed or deleted loses its permissions.
import { ApplicationCommandType, type APIApplicationCommand } from "discord-api-types/v10";
import type { ApplicationCommand } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { providerOf, type Db, type Tx } from "~/server/db/client.ts";
import { ApiError } from "~/server/errors.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { definitionOf, toCommandObject } from "./command.dto.ts";
import { commandLimitDenial, DAILY_COMMAND_CREATES, entryPointError, type CommandCounts } from "./command-limits.ts";
import { commandScopeFor, type CommandScope } from "./command-scope.ts";
import { syncCommandBadge } from "./command-badge.ts";
import type { CommandDefinition, TCommandBody, TCommandBulkItem, TCommandEditBody } from "./command.schema.ts";
import { mergeCommandEdit, parseCommandBody } from "./command.schema.ts";

type ScopeInput = { applicationId: string; guildId?: string };

/** The commands of a scope in creation order; list reads localize unless asked for the maps. */
export async function listCommands(
  ctx: ServiceContext,
  input: ScopeInput & { withLocalizations: boolean; locale: string | null },
): Promise<APIApplicationCommand[]> {
  const scope = await commandScopeFor(ctx, input);
  const rows = await rowsOf(ctx.db, scope);
  const view = input.withLocalizations ? ({ localizations: true } as const) : ({ localizations: false, locale: input.locale } as const);
  return rows.map((row) => toCommandObject(row, view));
}

export async function getCommand(ctx: ServiceContext, input: ScopeInput & { commandId: string }): Promise<APIApplicationCommand> {
  const scope = await commandScopeFor(ctx, input);
  return toCommandObject(await findCommand(ctx.db, scope, input.commandId));
}

/** POST: a new command (created), or the one of that name and type overwritten in place (same id, not created). */
export async function createCommand(
  ctx: ServiceContext,
  input: ScopeInput & { body: TCommandBody },
): Promise<{ command: APIApplicationCommand; created: boolean }> {
  const scope = await commandScopeFor(ctx, input);
  await refuseEntryPoints(ctx, scope, [input.body.type], false);
  return registryChange(ctx, scope, async (change) => {
    const { tx } = change;
    const { name, type, definition } = splitBody(input.body);
    const existing = await tx.applicationCommand.findUnique({
      where: { applicationId_scope_type_name: { applicationId: scope.applicationId, scope: scope.key, type, name } },
    });
    if (existing) return { command: toCommandObject(await rewrite(tx, existing, { name, definition })), created: false };
    const counts = countsOf(await rowsOf(tx, scope));
    enforce(commandLimitDenial(counts, [type]));
    await spendCreates(tx, scope, 1);
    const row = await insertCommand(tx, scope, { name, type, definition });
    await syncCommandBadge(change, scope);
    return { command: toCommandObject(row), created: true };
  });
}

/** PATCH: the given fields replace the stored ones; the merged command is validated whole. A rename onto another command is 40041, and drops the permissions. */
export async function editCommand(ctx: ServiceContext, input: ScopeInput & { commandId: string; body: TCommandEditBody }): Promise<APIApplicationCommand> {
  const scope = await commandScopeFor(ctx, input);
  return registryChange(ctx, scope, async ({ tx }) => {
    const row = await findCommand(tx, scope, input.commandId);
    const merged = parseCommandBody(scope, mergeCommandEdit({ type: row.type, name: row.name, ...definitionOf(row) }, input.body));
    const { name, definition } = splitBody(merged);
    if (name !== row.name) {
      const taken = await tx.applicationCommand.findUnique({
        where: { applicationId_scope_type_name: { applicationId: scope.applicationId, scope: scope.key, type: row.type, name } },
        select: { id: true },
      });
      if (taken) throw new ApiError("APPLICATION_COMMAND_NAME_EXISTS");
    }
    return toCommandObject(await rewrite(tx, row, { name, definition }));
  });
}

export async function deleteCommand(ctx: ServiceContext, input: ScopeInput & { commandId: string }): Promise<void> {
  const scope = await commandScopeFor(ctx, input);
  await registryChange(ctx, scope, async (change) => {
    const row = await findCommand(change.tx, scope, input.commandId);
    await change.tx.applicationCommand.delete({ where: { id: row.id } });
    await dropPermissions(change.tx, scope, [row.id]);
    await syncCommandBadge(change, scope);
  });
}

/**
 * PUT: the scope's commands become exactly `body`, all or nothing. Each item keeps the id of
 * the command it matches (by `id` when given, else by name and type); the others are deleted,
 * and only the items matching none are created (and spend the quota).
 */
export async function overwriteCommands(ctx: ServiceContext, input: ScopeInput & { body: readonly TCommandBulkItem[] }): Promise<APIApplicationCommand[]> {
  const scope = await commandScopeFor(ctx, input);
  await refuseEntryPoints(
    ctx,
    scope,
    input.body.map((item) => item.type),
    true,
  );
  return registryChange(ctx, scope, async (change) => {
    const { tx } = change;
    const stored = await rowsOf(tx, scope);
    const byId = new Map(stored.map((row) => [row.id, row]));
    const byKey = new Map(stored.map((row) => [keyOf(row.type, row.name), row]));
    const claimed = new Set<string>();
    const plan = input.body.map((item) => {
      const { id, ...body } = item;
      const { name, type, definition } = splitBody(body);
      const byGivenId = id !== undefined ? byId.get(id) : undefined;
      const match = [byGivenId?.type === type ? byGivenId : undefined, byKey.get(keyOf(type, name))].find((row) => row !== undefined && !claimed.has(row.id));
      if (match) claimed.add(match.id);
      return { match, name, type, definition };
    });
    enforce(commandLimitDenial(countsOf(plan), []));
    const fresh = plan.filter((entry) => !entry.match);
    if (fresh.length > 0) await spendCreates(tx, scope, fresh.length);
    // Removed first, then the kept ones renamed, then the new ones made: each may take a name
    // the one before it gave up.
    const gone = stored.filter((row) => !claimed.has(row.id));
    if (gone.length > 0) {
      await tx.applicationCommand.deleteMany({ where: { id: { in: gone.map((row) => row.id) } } });
      await dropPermissions(
        tx,
        scope,
        gone.map((row) => row.id),
      );
    }
    const wanted = new Set(plan.map((entry) => keyOf(entry.type, entry.name)));
    // Kept commands whose names others take (two swapping names) step aside under their ids first.
    for (const { match, name } of plan) {
      if (match && name !== match.name && wanted.has(keyOf(match.type, match.name)))
        await tx.applicationCommand.update({ where: { id: match.id }, data: { name: match.id } });
    }
    const rows = new Map<number, ApplicationCommand>();
    for (const [index, entry] of plan.entries()) if (entry.match) rows.set(index, await rewrite(tx, entry.match, entry));
    for (const [index, entry] of plan.entries()) if (!entry.match) rows.set(index, await insertCommand(tx, scope, entry));
    await syncCommandBadge(change, scope);
    return plan.map((_, index) => toCommandObject(rows.get(index)!));
  });
}

async function refuseEntryPoints(ctx: ServiceContext, scope: CommandScope, types: readonly number[], bulk: boolean): Promise<void> {
  if (!types.includes(ApplicationCommandType.PrimaryEntryPoint)) return;
  const app = await ctx.db.application.findUniqueOrThrow({ where: { id: scope.applicationId }, select: { flags: true } });
  const error = entryPointError(app.flags, types, bulk);
  if (error) throw error;
}

function keyOf(type: number, name: string): string {
  return `${type}:${name}`;
}

function countsOf(entries: readonly { type: number }[]): CommandCounts {
  const counts = new Map<number, number>();
  for (const { type } of entries) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

function splitBody(body: TCommandBody): { name: string; type: number; definition: CommandDefinition } {
  const { name, type, ...definition } = body;
  return { name, type, definition };
}

async function rowsOf(db: Db | Tx, scope: CommandScope): Promise<ApplicationCommand[]> {
  return db.applicationCommand.findMany({ where: { applicationId: scope.applicationId, scope: scope.key }, orderBy: { id: "asc" } });
}

async function findCommand(db: Db | Tx, scope: CommandScope, commandId: string): Promise<ApplicationCommand> {
  const row = await db.applicationCommand.findFirst({ where: { id: commandId, applicationId: scope.applicationId, scope: scope.key } });
  if (!row) throw new ApiError("UNKNOWN_APPLICATION_COMMAND");
  return row;
}

async function insertCommand(tx: Tx, scope: CommandScope, entry: { name: string; type: number; definition: CommandDefinition }): Promise<ApplicationCommand> {
  const id = newId();
  return tx.applicationCommand.create({
    data: {
      id,
      applicationId: scope.applicationId,
      guildId: scope.guildId,
      scope: scope.key,
      type: entry.type,
      name: entry.name,
      definition: JSON.stringify(entry.definition),
      version: id,
    },
  });
}

/** A stored command given a new name and definition: a new version when anything changed, and no permissions once renamed. */
async function rewrite(tx: Tx, row: ApplicationCommand, next: { name: string; definition: CommandDefinition }): Promise<ApplicationCommand> {
  const definition = JSON.stringify(next.definition);
  if (next.name === row.name && definition === row.definition) return row;
  const updated = await tx.applicationCommand.update({ where: { id: row.id }, data: { name: next.name, definition, version: newId() } });
  if (next.name !== row.name) await dropPermissions(tx, { applicationId: row.applicationId, guildId: row.guildId }, [row.id]);
  return updated;
}

/** A command's permissions go with it: in its guild, or in every guild for a global one. */
async function dropPermissions(tx: Tx, scope: Pick<CommandScope, "applicationId" | "guildId">, commandIds: readonly string[]): Promise<void> {
  await tx.applicationCommandPermissions.deleteMany({
    where: { applicationId: scope.applicationId, targetId: { in: [...commandIds] }, ...(scope.guildId !== null && { guildId: scope.guildId }) },
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** 30034 past the day's creates in the scope (a rolling day); otherwise records these and forgets those older than a day. */
async function spendCreates(tx: Tx, scope: CommandScope, count: number): Promise<void> {
  const now = new Date();
  const since = new Date(now.getTime() - DAY_MS);
  const where = { applicationId: scope.applicationId, scope: scope.key };
  await tx.applicationCommandCreate.deleteMany({ where: { ...where, createdAt: { lt: since } } });
  const spent = await tx.applicationCommandCreate.count({ where });
  if (spent + count > DAILY_COMMAND_CREATES) throw new ApiError("MAX_DAILY_COMMAND_CREATES");
  await tx.applicationCommandCreate.createMany({ data: Array.from({ length: count }, () => ({ id: newId(), ...where, createdAt: now })) });
}

/**
 * A write of one registry. On PostgreSQL, changes of one scope queue on a transaction lock, so
 * two creates cannot both pass a limit; SQLite's write path runs one change at a time already.
 */
async function registryChange<T>(ctx: ServiceContext, scope: CommandScope, fn: (change: Change) => Promise<T>): Promise<T> {
  const postgres = providerOf(ctx.db) === "postgresql";
  return runChange(ctx, async (change) => {
    if (postgres) await change.tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`commands:${scope.applicationId}:${scope.key}`}))`;
    return fn(change);
  });
}
