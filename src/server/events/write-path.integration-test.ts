import { AuditLogEvent, GatewayDispatchEvents } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { sqliteWriteAccess, type Tx } from "~/server/db/client.ts";
import { UnannouncedWriteError } from "~/server/db/event-guard.ts";
import { ApiError } from "~/server/errors.ts";
import { joinGuild } from "~/server/members/membership.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { guildAsUpdated, makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";
import { until } from "~/test/until.ts";
import { runChange, type Change } from "./change.ts";
import type { StoredEvent } from "./event-bus.ts";

const app = useTestApp();

/** The transaction a change runs in on SQLite (the open transaction's writes), to see which changes shared one. */
function transactionOf(): unknown {
  return sqliteWriteAccess(app.db)?.open.current ?? null;
}

async function setting() {
  const owner = await makeBot(app.db);
  const guild = await app.db.guild.findUniqueOrThrow({ where: { id: (await makeGuild(app.db, owner.actor)).id } });
  const [banned, joinerA, clashing, joinerB] = await Promise.all([makeUser(app.db), makeUser(app.db), makeUser(app.db), makeUser(app.db)]);
  return { owner, guild, banned: banned.user, joinerA: joinerA.user, clashing: clashing.user, joinerB: joinerB.user };
}

describe("the write path", () => {
  it("commits concurrent changes together, each with its own outcome, events and audit entries", async () => {
    const { owner, guild, banned, joinerA, clashing, joinerB } = await setting();
    const heard: StoredEvent[] = [];
    const unsubscribe = app.runtime.events.subscribe((event) => heard.push(event));
    const transactions: unknown[] = [];

    const ban = async ({ tx, emit, audit }: Change, userId: string) => {
      await tx.ban.create({ data: { guildId: guild.id, userId, reason: null } });
      const user = await tx.user.findUniqueOrThrow({ where: { id: userId } });
      await emit(GatewayDispatchEvents.GuildBanAdd, { guild_id: guild.id, user: toUserObject(user) });
      await audit({ guildId: guild.id, actionType: AuditLogEvent.MemberBanAdd, targetId: userId });
    };
    const join = async (change: Change, userId: string) => {
      transactions.push(transactionOf());
      const row = await joinGuild(change, { guild, userId });
      await change.audit({ guildId: guild.id, actionType: AuditLogEvent.MemberUpdate, targetId: userId });
      return row;
    };
    const moderator = { db: app.db, actor: owner.actor };
    // The moderator bans a user who has read nothing yet that says so: their join is refused
    // inside its own change (SQLite: the writer's order; PostgreSQL: the ban committed first).
    const banning = runChange({ ...moderator, auditReason: "ban" }, (change) => ban(change, banned.id));
    if (!sqliteWriteAccess(app.db)) await banning;
    const outcomes = await Promise.allSettled([
      banning,
      runChange({ db: app.db, actor: dashboardActor(banned.id), auditReason: "banned" }, (change) => join(change, banned.id)),
      runChange({ db: app.db, actor: dashboardActor(joinerA.id), auditReason: "a" }, (change) => join(change, joinerA.id)),
      // Joins, then clashes on a unique key (a second ban of the same user): its join goes too.
      runChange({ db: app.db, actor: dashboardActor(clashing.id), auditReason: "clash" }, async (change) => {
        await join(change, clashing.id);
        await ban(change, banned.id);
      }),
      runChange({ db: app.db, actor: dashboardActor(joinerB.id), auditReason: "b" }, (change) => join(change, joinerB.id)),
    ]);
    unsubscribe();

    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected", "fulfilled"]);
    const refused = (outcomes[1] as PromiseRejectedResult).reason;
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(40007);
    expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({ code: "P2002" });
    // On SQLite they were one transaction (the ban's change ran in it too).
    if (sqliteWriteAccess(app.db)) expect(new Set(transactions).size).toBe(1);

    const members = await app.db.member.findMany({ where: { guildId: guild.id, userId: { in: [banned.id, joinerA.id, clashing.id, joinerB.id] } } });
    expect(members.map((member) => member.userId).sort()).toEqual([joinerA.id, joinerB.id].sort());
    expect(await app.db.ban.count({ where: { guildId: guild.id } })).toBe(1);

    // Events of the committed changes only, heard in commit order with increasing seqs, each
    // change's audit entry announced after its own events.
    const mine = heard.filter((event) => event.guildId === guild.id);
    const about = (event: StoredEvent) =>
      event.type === GatewayDispatchEvents.GuildAuditLogEntryCreate ? event.data.target_id : (event.data as { user: { id: string } }).user.id;
    expect(mine.map((event) => [event.type, about(event)])).toEqual([
      [GatewayDispatchEvents.GuildBanAdd, banned.id],
      [GatewayDispatchEvents.GuildAuditLogEntryCreate, banned.id],
      [GatewayDispatchEvents.GuildMemberAdd, joinerA.id],
      [GatewayDispatchEvents.GuildAuditLogEntryCreate, joinerA.id],
      [GatewayDispatchEvents.GuildMemberAdd, joinerB.id],
      [GatewayDispatchEvents.GuildAuditLogEntryCreate, joinerB.id],
    ]);
    expect(mine.map((event) => event.seq)).toEqual([...mine.map((event) => event.seq)].sort((a, b) => a - b));
    const stored = await app.db.event.findMany({
      where: {
        guildId: guild.id,
        type: { in: [GatewayDispatchEvents.GuildBanAdd, GatewayDispatchEvents.GuildMemberAdd, GatewayDispatchEvents.GuildAuditLogEntryCreate] },
      },
    });
    expect(stored.map((event) => event.seq)).toEqual(mine.map((event) => event.seq));

    // Each audit entry is its own request's: its actor and its reason.
    const entries = await app.db.auditLogEntry.findMany({ where: { guildId: guild.id }, orderBy: { id: "asc" } });
    expect(entries.map((entry) => [entry.targetId, entry.userId, entry.reason])).toEqual([
      [banned.id, owner.user.id, "ban"],
      [joinerA.id, joinerA.id, "a"],
      [joinerB.id, joinerB.id, "b"],
    ]);
  });

  it("refuses, alone, a change that writes cached state without an event", async () => {
    const { owner, guild } = await setting();
    const rename = (tx: Tx, name: string) => tx.guild.update({ where: { id: guild.id }, data: { name } });
    const [silent, announced] = await Promise.allSettled([
      runChange({ db: app.db, actor: owner.actor }, ({ tx }) => rename(tx, "Silent")),
      runChange({ db: app.db, actor: owner.actor }, async ({ tx, emit }) => {
        await rename(tx, "Announced");
        await emit(GatewayDispatchEvents.GuildUpdate, await guildAsUpdated(tx, guild.id));
      }),
    ]);
    expect(silent.status).toBe("rejected");
    expect((silent as PromiseRejectedResult).reason).toBeInstanceOf(UnannouncedWriteError);
    expect(announced.status).toBe("fulfilled");
    expect((await app.db.guild.findUniqueOrThrow({ where: { id: guild.id } })).name).toBe("Announced");
  });

  it("runs an exclusive section once the batch in flight committed, and holds changes that arrive until it ends", async () => {
    const order: string[] = [];
    let finishBatch!: () => void;
    const batchMayFinish = new Promise<void>((resolve) => (finishBatch = resolve));
    const inFlight = runChange({ db: app.db, actor: null }, async ({ tx }) => {
      order.push("batch starts");
      await batchMayFinish;
      await tx.user.count();
      order.push("batch ends");
    });
    await until(() => Promise.resolve(order.length > 0));
    let held: Promise<void> | undefined;
    const section = app.runtime.writes.exclusive(async () => {
      order.push("section starts");
      held = runChange({ db: app.db, actor: null }, () => Promise.resolve(void order.push("held change runs")));
      // Turns of the event loop in which the change would have been written, were it not held.
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      order.push("section ends");
      return "done";
    });
    finishBatch();
    expect(await section).toBe("done");
    await Promise.all([inFlight, held]);
    expect(order).toEqual(["batch starts", "batch ends", "section starts", "section ends", "held change runs"]);
  });
});
