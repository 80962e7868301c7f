import { InternalEvents } from "~/server/events/event-map.ts";
// Privileged gateway intents as application settings (spec sections 5 and 9). An app may
// switch the limited form on itself while its bot reaches fewer than 10,000 users; past
// that only an operator's approval (the full flag) keeps or grants the intent.
import { ApplicationFlags } from "discord-api-types/v10";
import { LRUCache } from "lru-cache";
import type { ServiceContext } from "~/server/context.ts";
import type { Db, Tx } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange, type ChangeContext } from "~/server/events/change.ts";
import { CACHES } from "~/server/runtime/cache-registry.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { PRIVILEGED_INTENT_NAMES, type PrivilegedIntent } from "./application.schema.ts";

/** Users a bot may reach across its guilds before its intents need review. */
export const INTENT_REVIEW_THRESHOLD = 10_000;

const PRIVILEGED_INTENTS = {
  GUILD_MEMBERS: { approved: ApplicationFlags.GatewayGuildMembers, limited: ApplicationFlags.GatewayGuildMembersLimited },
  PRESENCE: { approved: ApplicationFlags.GatewayPresence, limited: ApplicationFlags.GatewayPresenceLimited },
  MESSAGE_CONTENT: { approved: ApplicationFlags.GatewayMessageContent, limited: ApplicationFlags.GatewayMessageContentLimited },
} as const satisfies Record<PrivilegedIntent, { approved: number; limited: number }>;

/** A comma-separated list of intent names (any case), as operators type them; unknown names are refused by name. */
export function parseIntentList(list: string): PrivilegedIntent[] {
  const names = list.split(",").map((name) => name.trim().toUpperCase());
  const unknown = names.filter((name) => !(name in PRIVILEGED_INTENTS));
  if (unknown.length > 0) throw new Error(`Unknown intents: ${unknown.join(", ")} (known: ${Object.keys(PRIVILEGED_INTENTS).join(", ")})`);
  return names as PrivilegedIntent[];
}

/** The limited (self-set) flags of the given intents. */
export function limitedIntentFlags(intents: readonly PrivilegedIntent[]): number {
  return intents.reduce((flags, intent) => flags | PRIVILEGED_INTENTS[intent].limited, 0);
}

/** Past the review size the limited (self-set) intents no longer count. */
function isOverReview(reach: number): boolean {
  return reach >= INTENT_REVIEW_THRESHOLD;
}

/** The flags an application may set on itself (the platform's Edit Current Application). */
const SELF_SERVICE_FLAGS = limitedIntentFlags(PRIVILEGED_INTENT_NAMES);

// Reach is a count over every guild the bot is in, too costly per request; the platform
// too reviews it periodically rather than per call.
const reachCache = new LRUCache<string, number>({ max: CACHES.intentsReach.max, ttl: CACHES.intentsReach.ttlMs });

/** Forgets every reach counted (a test twin's restore replaced the guilds they were counted in). */
export function forgetApplicationReach(): void {
  reachCache.clear();
}

/** Distinct users across the guilds an application's bot is in. */
export async function applicationReach(db: Db, botUserId: string): Promise<number> {
  const cached = reachCache.get(botUserId);
  if (cached !== undefined) return cached;
  const rows = await db.$queryRaw<{ reach: bigint | number }[]>`
    SELECT COUNT(DISTINCT other."userId") AS "reach" FROM "Member" bot
    JOIN "Member" other ON other."guildId" = bot."guildId"
    WHERE bot."userId" = ${botUserId}`;
  const reach = Number(rows[0]?.reach ?? 0);
  reachCache.set(botUserId, reach);
  return reach;
}

/** Whether an application holds an intent: approved, or switched on itself while under review size. */
export async function hasPrivilegedIntent(db: Db, applicationId: string, intent: PrivilegedIntent): Promise<boolean> {
  const app = await stateCache(db).application(applicationId);
  if (!app) return false;
  const { approved, limited } = PRIVILEGED_INTENTS[intent];
  if (app.flags & approved) return true;
  if (!(app.flags & limited)) return false;
  return !isOverReview(await applicationReach(db, app.botUserId));
}

/** Bots need the intent; people in the dashboard do not. 50001 Missing Access without it. */
export async function requireIntentOf(ctx: ServiceContext, intent: PrivilegedIntent): Promise<void> {
  const { actor } = ctx;
  if (actor.kind !== "bot") return;
  if (!actor.applicationId || !(await hasPrivilegedIntent(ctx.db, actor.applicationId, intent))) throw new ApiError("MISSING_ACCESS");
}

/** What an application asks of its own intents: its whole set of flags (REST), or one switch (dashboard). */
export type OwnIntentRequest = { flags: number } | { intent: PrivilegedIntent; enabled: boolean };

/** The limited intent flags under `mask` become `bits`. */
export type OwnIntentChange = { mask: number; bits: number };

/**
 * The rule for an application's own intents (PATCH /applications/@me `flags`, the dashboard's
 * switches): only the limited flags change, and switching one on is refused once the bot
 * reaches the review size.
 */
export async function ownIntentChange(db: Db, app: { flags: number; botUserId: string }, request: OwnIntentRequest): Promise<OwnIntentChange> {
  let change: OwnIntentChange;
  if ("flags" in request) {
    // Other flags the app already has may be sent back unchanged; none can be added.
    if ((request.flags & ~SELF_SERVICE_FLAGS & ~app.flags) !== 0) {
      throw invalidField(["flags"], "BASE_TYPE_INVALID", "Only the limited privileged intent flags can be set.");
    }
    change = { mask: SELF_SERVICE_FLAGS, bits: request.flags & SELF_SERVICE_FLAGS };
  } else {
    const { limited } = PRIVILEGED_INTENTS[request.intent];
    change = { mask: limited, bits: request.enabled ? limited : 0 };
  }
  const switchedOn = change.bits & ~app.flags;
  if (switchedOn && isOverReview(await applicationReach(db, app.botUserId))) {
    throw invalidField(
      ["flags"],
      "APPLICATION_INTENTS_REVIEW_REQUIRED",
      `Apps reaching ${INTENT_REVIEW_THRESHOLD} users need an operator's approval for privileged intents.`,
    );
  }
  return change;
}

/** Writes an own-intent change in one statement, so a concurrent switch of another intent is kept. */
export async function writeOwnIntentChange(tx: Tx, applicationId: string, change: OwnIntentChange): Promise<void> {
  await tx.$executeRaw`UPDATE "Application" SET "flags" = ("flags" & ${~change.mask}) | ${change.bits} WHERE "id" = ${applicationId}`;
}

/** An operator approves intents (the full flags) or withdraws an approval and the self-set flags. */
export async function setApprovedIntents(ctx: ChangeContext, applicationId: string, intents: readonly PrivilegedIntent[], approve: boolean): Promise<number> {
  const app = await ctx.db.application.findUnique({ where: { id: applicationId }, select: { flags: true } });
  if (!app) throw new ApiError("UNKNOWN_APPLICATION");
  let flags = app.flags;
  for (const intent of intents) {
    const { approved, limited } = PRIVILEGED_INTENTS[intent];
    flags = approve ? flags | approved : flags & ~approved & ~limited;
  }
  return updateFlags(ctx, applicationId, flags);
}

/**
 * Each intent's state: approved by an operator, switched on by the app itself (limited), switched
 * on but without effect because the bot's reach needs review, or off.
 */
export type IntentState = "approved" | "limited" | "needs_review" | "off";

/** The intents an application holds now, by name, given its bot's reach. */
export function describeIntents(flags: number, reach: number): Record<PrivilegedIntent, IntentState> {
  const entries = Object.entries(PRIVILEGED_INTENTS).map(([name, { approved, limited }]) => [
    name,
    flags & approved ? "approved" : !(flags & limited) ? "off" : isOverReview(reach) ? "needs_review" : "limited",
  ]);
  return Object.fromEntries(entries) as Record<PrivilegedIntent, IntentState>;
}

async function updateFlags(ctx: ChangeContext, applicationId: string, flags: number): Promise<number> {
  return runChange(ctx, async ({ tx, emit }) => {
    await tx.application.update({ where: { id: applicationId }, data: { flags } });
    await emit(InternalEvents.ApplicationUpdated, { application_id: applicationId });
    return flags;
  });
}
