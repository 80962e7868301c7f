// What the audit log page reads beyond the REST answer: the names of everything the entries
// point at (users, roles, channels, webhooks, ...), looked up in one batch per page, and who
// and what appear in the log for its filters.
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { auditLogDenial } from "~/server/guilds/guild-section-rules.ts";
import { enforce } from "~/server/permissions/denial.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import type { TAuditLogDashboardQuery } from "./audit.schema.ts";
import type { AuditLogEntryObject } from "./audit.dto.ts";
import { findAuditEntries } from "./audit.service.ts";

/** A thing an entry names, as it is now. Ids are unique across kinds; invites are keyed by code. */
export type AuditName =
  | { kind: "user"; name: string; username: string; member: boolean; banned: boolean }
  | { kind: "role"; name: string; color: number }
  | { kind: "channel"; name: string; type: number; parentId: string | null }
  | { kind: "webhook"; name: string; channelId: string | null }
  | { kind: "integration"; name: string; type: string }
  | { kind: "event"; name: string }
  | { kind: "prompt"; name: string }
  | { kind: "guild"; name: string }
  | { kind: "invite"; channelId: string };

export type AuditNames = Record<string, AuditName>;

/** How many of the log's most recently touched targets the target filter offers. */
const TARGET_OPTIONS_MAX = 200;

const SNOWFLAKE = /^\d{15,21}$/;

/** Every snowflake-looking string in a value, however deep (changes hold ids in lists and objects). */
function collectIds(value: unknown, into: Set<string>): void {
  if (typeof value === "string") {
    if (SNOWFLAKE.test(value)) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectIds(item, into);
  } else if (value && typeof value === "object") {
    for (const item of Object.values(value)) collectIds(item, into);
  }
}

/** Invite codes the entries name (an invite entry has no target id, only its code among the changes). */
function inviteCodes(entries: readonly AuditLogEntryObject[]): string[] {
  return entries.flatMap((entry) =>
    (entry.changes ?? []).flatMap((change) => {
      const code = change.key === "code" ? (change.new_value ?? change.old_value) : undefined;
      return typeof code === "string" ? [code] : [];
    }),
  );
}

/** The name each id had last, from the guild's own entries, for targets that are gone. */
async function lastKnownNames(db: Db, guildId: string, ids: readonly string[]): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  const rows = await db.auditLogEntry.findMany({
    where: { guildId, targetId: { in: [...ids] } },
    select: { targetId: true, changes: true, options: true },
    orderBy: { id: "desc" },
  });
  const names: Record<string, string> = {};
  for (const row of rows) {
    if (!row.targetId || names[row.targetId]) continue;
    const changes = row.changes ? (JSON.parse(row.changes) as { key: string; old_value?: unknown; new_value?: unknown }[]) : [];
    const named = changes.find((c) => c.key === "name" || c.key === "title");
    const name = named?.new_value ?? named?.old_value;
    if (typeof name === "string") names[row.targetId] = name;
  }
  return names;
}

/**
 * The names of everything `entries` and `extraIds` mention, as they are now: a fixed number
 * of queries, whatever the page holds. Ids missing from `names` are gone; `lastKnown` holds
 * the name the log last recorded for such targets.
 */
async function resolveNames(db: Db, guildId: string, entries: readonly AuditLogEntryObject[], extraIds: readonly string[]) {
  const ids = new Set<string>(extraIds);
  for (const entry of entries) collectIds([entry.user_id, entry.target_id, entry.options, entry.changes], ids);
  const list = [...ids];
  const codes = inviteCodes(entries);
  const [guild, users, members, bans, roles, channels, webhooks, integrations, events, invites] = await Promise.all([
    db.guild.findUniqueOrThrow({ where: { id: guildId }, select: { name: true, onboardingPrompts: true } }),
    db.user.findMany({ where: { id: { in: list } }, select: { id: true, username: true, globalName: true } }),
    db.member.findMany({ where: { guildId, userId: { in: list } }, select: { userId: true } }),
    db.ban.findMany({ where: { guildId, userId: { in: list } }, select: { userId: true } }),
    db.role.findMany({ where: { guildId, id: { in: list } }, select: { id: true, name: true, color: true } }),
    db.channel.findMany({ where: { guildId, id: { in: list } }, select: { id: true, name: true, type: true, parentId: true } }),
    db.webhook.findMany({ where: { guildId, id: { in: list } }, select: { id: true, name: true, channelId: true } }),
    db.integration.findMany({ where: { guildId, id: { in: list } }, select: { id: true, name: true, type: true } }),
    db.scheduledEvent.findMany({ where: { guildId, id: { in: list } }, select: { id: true, name: true } }),
    db.invite.findMany({ where: { guildId, code: { in: codes } }, select: { code: true, channelId: true } }),
  ]);
  const memberIds = new Set(members.map((m) => m.userId));
  const bannedIds = new Set(bans.map((b) => b.userId));
  const names: AuditNames = { [guildId]: { kind: "guild", name: guild.name } };
  for (const u of users) {
    names[u.id] = { kind: "user", name: u.globalName ?? u.username, username: u.username, member: memberIds.has(u.id), banned: bannedIds.has(u.id) };
  }
  // @everyone shares the guild's id, which names the guild here; the wording knows @everyone.
  for (const r of roles) if (r.id !== guildId) names[r.id] = { kind: "role", name: r.name, color: r.color };
  for (const c of channels) names[c.id] = { kind: "channel", name: c.name ?? "", type: c.type, parentId: c.parentId };
  for (const w of webhooks) names[w.id] = { kind: "webhook", name: w.name ?? "", channelId: w.channelId };
  for (const i of integrations) names[i.id] = { kind: "integration", name: i.name, type: i.type };
  for (const e of events) names[e.id] = { kind: "event", name: e.name };
  for (const p of JSON.parse(guild.onboardingPrompts) as { id: string; title: string }[]) if (ids.has(p.id)) names[p.id] = { kind: "prompt", name: p.title };
  for (const invite of invites) names[invite.code] = { kind: "invite", channelId: invite.channelId };
  const gone = list.filter((id) => !names[id]);
  return { names, lastKnown: await lastKnownNames(db, guildId, gone) };
}

/** Who acted in the guild's log, and what the log's entries most recently touched, for the filters. */
async function filterOptions(db: Db, guildId: string) {
  const [actors, targets] = await Promise.all([
    db.auditLogEntry.groupBy({ by: ["userId"], where: { guildId, userId: { not: null } } }),
    db.auditLogEntry.groupBy({
      by: ["targetId"],
      where: { guildId, targetId: { not: null } },
      _max: { id: true, actionType: true },
      orderBy: { _max: { id: "desc" } },
      take: TARGET_OPTIONS_MAX,
    }),
  ]);
  return {
    actorIds: actors.flatMap((row) => (row.userId ? [row.userId] : [])),
    targets: targets.flatMap((row) => (row.targetId && row._max.actionType !== null ? [{ id: row.targetId, actionType: row._max.actionType }] : [])),
  };
}

/**
 * A page of the guild's audit log for the dashboard (VIEW_AUDIT_LOG, as the endpoint): the
 * entries, the names of all they mention, and the people and targets the filters offer.
 */
export async function listAuditLogForDashboard(ctx: ServiceContext, input: { guildId: string; query: TAuditLogDashboardQuery }) {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(auditLogDenial(access));
  const guildId = access.guild.id;
  const [entries, options] = await Promise.all([findAuditEntries(ctx.db, guildId, input.query), filterOptions(ctx.db, guildId)]);
  const { names, lastKnown } = await resolveNames(ctx.db, guildId, entries, [...options.actorIds, ...options.targets.map((t) => t.id)]);
  return { entries, names, lastKnown, actorIds: options.actorIds, targets: options.targets };
}
