import { InternalEvents } from "~/server/events/event-map.ts";
import { ApplicationFlags } from "discord-api-types/v10";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import { dashboardActor, type Actor } from "~/server/auth/actor.ts";
import { runChange } from "~/server/events/change.ts";
import { readImage } from "~/server/images/image.service.ts";

import { createTRPCContext } from "~/server/trpc/init.ts";
import { appRouter, createCaller } from "~/server/trpc/root.ts";
import { addMember, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { MISSING_ACCESS, PNG } from "~/test/member-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { INTENT_REVIEW_THRESHOLD, setApprovedIntents } from "./intents.ts";

const app = useTestApp();

/** A signed-in dashboard user's tRPC caller. */
async function dashboardUser() {
  const { user } = await makeUser(app.db);
  return { user, caller: createCaller({ db: app.db, userId: user.id }) };
}

/**
 * A mutation's error as the dashboard receives it over HTTP (the error formatter's `data`),
 * or null when it succeeds.
 */
async function mutationError(userId: string, path: string, input: unknown) {
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(`http://dashboard.test/api/trpc/${path}`, {
      method: "POST",
      body: JSON.stringify(input),
      headers: { "content-type": "application/json" },
    }),
    router: appRouter,
    createContext: () => createTRPCContext({ db: app.db, userId }),
  });
  const body = (await response.json()) as { error?: { data: { code: string; fieldErrors: Record<string, unknown> | null } } };
  return body.error?.data ?? null;
}

/** A new application made through the dashboard, with a guild its bot owns. */
async function appWithGuild(caller: Awaited<ReturnType<typeof dashboardUser>>["caller"], name = "Quest Bot") {
  const { application, botToken } = await caller.application.create({ name });
  // Its reach is counted (and cached for a minute) only once the bot is in its guild.
  const { botUserId } = await app.db.application.findUniqueOrThrow({ where: { id: application.id }, select: { botUserId: true } });
  const botActor: Actor = { kind: "bot", userId: botUserId, applicationId: application.id, scopes: new Set() };
  const guild = await makeGuild(app.db, botActor);
  return { application, botToken, guild, api: app.as(bot(botToken)) };
}

describe("application router (dashboard Applications)", () => {
  it("creates an application whose bot token works at once, listed newest first with development rate limits", async () => {
    const { caller } = await dashboardUser();
    expect(await caller.application.list()).toEqual([]);
    const first = await caller.application.create({ name: "  Quest Bot  ", description: "Finds parties" });
    expect(first.application).toMatchObject({ name: "Quest Bot", description: "Finds parties", icon: null, rateLimitsLifted: false });
    const second = await caller.application.create({ name: "Matchmaker" });

    const me = await app.as(bot(first.botToken)).get("/applications/@me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: first.application.id, name: "Quest Bot", description: "Finds parties", bot: { bot: true } });
    expect((await caller.application.list()).map((a) => a.name)).toEqual(["Matchmaker", "Quest Bot"]);
    expect(second.botToken).not.toBe(first.botToken);
  });

  it("treats another user's application, and an unknown one, as not found", async () => {
    const owner = await dashboardUser();
    const { application } = await owner.caller.application.create({ name: "Mine" });
    const other = await dashboardUser();
    const id = { applicationId: application.id };
    await expect(other.caller.application.get(id)).rejects.toMatchObject({ code: "NOT_FOUND", message: "Unknown Application" });
    await expect(other.caller.application.edit({ ...id, body: { name: "Theirs now" } })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.caller.application.resetToken(id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.caller.application.setIntent({ ...id, intent: "PRESENCE", enabled: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.caller.application.get({ applicationId: "1" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.caller.application.get({ applicationId: "not-an-id" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await other.caller.application.list()).toEqual([]);
    expect((await owner.caller.application.get(id)).name).toBe("Mine");
    // Signed out: nothing at all.
    await expect(createCaller({ db: app.db, userId: null }).application.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("resets the bot token: the old one is refused, the new one works", async () => {
    const { caller } = await dashboardUser();
    const { application, botToken } = await caller.application.create({ name: "Rotator" });
    const { botToken: fresh } = await caller.application.resetToken({ applicationId: application.id });
    expect(fresh).not.toBe(botToken);
    expect((await app.as(bot(botToken)).get("/applications/@me")).status).toBe(401);
    expect((await app.as(bot(fresh)).get("/applications/@me")).status).toBe(200);
  });

  it("switches channel obfuscation on and off for the application's new gateway sessions; another user cannot", async () => {
    const { user, caller } = await dashboardUser();
    const { application } = await caller.application.create({ name: "Watcher" });
    const id = { applicationId: application.id };
    expect((await caller.application.get(id)).channelObfuscation).toBe(false);
    const on = await caller.application.edit({ ...id, body: { channelObfuscation: true } });
    expect(on).toMatchObject({ name: "Watcher", channelObfuscation: true });
    expect((await app.db.application.findUniqueOrThrow({ where: { id: application.id } })).channelObfuscation).toBe(true);
    expect((await mutationError((await dashboardUser()).user.id, "application.edit", { ...id, body: { channelObfuscation: false } }))?.code).toBe("NOT_FOUND");
    expect((await mutationError(user.id, "application.edit", { ...id, body: { channelObfuscation: "yes" } }))?.code).toBe("BAD_REQUEST");
    expect((await caller.application.edit({ ...id, body: { channelObfuscation: false } })).channelObfuscation).toBe(false);
  });

  it("edits name, description and icon, with field errors for bad values and nothing written", async () => {
    const { caller, user } = await dashboardUser();
    const { application, botToken } = await caller.application.create({ name: "Draft" });
    const applicationId = application.id;
    const fieldErrors = async (body: Record<string, unknown>) => {
      const error = await mutationError(user.id, "application.edit", { applicationId, body });
      expect(error).toMatchObject({ code: "BAD_REQUEST" });
      return error?.fieldErrors;
    };
    const badLength = { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] };
    expect(await fieldErrors({ name: "   " })).toMatchObject({ body: { name: badLength } });
    expect(await fieldErrors({ name: "x".repeat(33) })).toMatchObject({ body: { name: badLength } });
    expect(await fieldErrors({ description: "d".repeat(401) })).toMatchObject({ body: { description: badLength } });
    expect(await fieldErrors({ icon: "not an image" })).toMatchObject({ body: { icon: { _errors: [{ code: "IMAGE_INVALID" }] } } });
    // A data URI whose bytes are not the image it claims passes the schema and is refused by the image check.
    expect(await fieldErrors({ name: "Renamed", icon: "data:image/png;base64,aGVsbG8=" })).toMatchObject({ icon: { _errors: [{ code: "IMAGE_INVALID" }] } });
    expect((await caller.application.get({ applicationId })).name).toBe("Draft");

    const edited = await caller.application.edit({ applicationId, body: { name: "x".repeat(32), description: "d".repeat(400), icon: PNG } });
    expect(edited).toMatchObject({ name: "x".repeat(32), description: "d".repeat(400), icon: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(await readImage(app.db, `/cdn/app-icons/${applicationId}/${edited.icon}.png`)).toMatchObject({ contentType: "image/png" });
    expect((await app.as(bot(botToken)).get("/applications/@me")).body).toMatchObject({ name: "x".repeat(32), icon: edited.icon });

    const cleared = await caller.application.edit({ applicationId, body: { icon: null, description: "" } });
    expect(cleared).toMatchObject({ icon: null, description: "", name: "x".repeat(32) });
  });

  it("switches an intent's limited form, which the bot has at once; an operator's approval stays when it is switched off", async () => {
    const { caller } = await dashboardUser();
    const { application, guild, api } = await appWithGuild(caller);
    const applicationId = application.id;
    const members = () => api.get(`/guilds/${guild.id}/members`);
    const before = await caller.application.get({ applicationId });
    expect(before).toMatchObject({ intents: { GUILD_MEMBERS: "off", PRESENCE: "off", MESSAGE_CONTENT: "off" }, reach: 1, reviewThreshold: 10_000 });
    expect((await members()).body).toEqual(MISSING_ACCESS);

    const on = await caller.application.setIntent({ applicationId, intent: "GUILD_MEMBERS", enabled: true });
    expect(on.intents).toEqual({ GUILD_MEMBERS: "limited", PRESENCE: "off", MESSAGE_CONTENT: "off" });
    expect((await members()).status).toBe(200);
    // The same flags over REST: the dashboard and PATCH /applications/@me share one rule.
    expect((await api.get("/applications/@me")).body.flags).toBe(1 << 15);
    await caller.application.setIntent({ applicationId, intent: "MESSAGE_CONTENT", enabled: true });
    const off = await caller.application.setIntent({ applicationId, intent: "GUILD_MEMBERS", enabled: false });
    expect(off.intents).toEqual({ GUILD_MEMBERS: "off", PRESENCE: "off", MESSAGE_CONTENT: "limited" });
    expect((await members()).body).toEqual(MISSING_ACCESS);

    await setApprovedIntents({ db: app.db, actor: null }, applicationId, ["PRESENCE"], true);
    const approved = await caller.application.setIntent({ applicationId, intent: "PRESENCE", enabled: false });
    expect(approved.intents.PRESENCE).toBe("approved");
  });

  it(`refuses switching an intent on once the bot reaches ${INTENT_REVIEW_THRESHOLD} users, shows a self-set one as needing review, and lets it be switched off`, async () => {
    const { caller, user } = await dashboardUser();
    const guild = await makeGuild(app.db, dashboardActor(user.id));
    // Ten thousand members in one statement; dates copied from the owner's rows keep each database's format.
    await writeGuildState(app.db, guild.id, async (tx) => {
      await tx.$executeRaw`INSERT INTO "User" ("id", "username", "createdAt")
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${INTENT_REVIEW_THRESHOLD})
        SELECT CAST(810000000000000000 + i AS TEXT), 'crowd_' || CAST(i AS TEXT), (SELECT "createdAt" FROM "User" WHERE "id" = ${user.id}) FROM n`;
      await tx.$executeRaw`INSERT INTO "Member" ("guildId", "userId", "joinedAt")
        SELECT ${guild.id}, u."id", (SELECT "joinedAt" FROM "Member" WHERE "userId" = ${user.id} AND "guildId" = ${guild.id})
        FROM "User" u WHERE u."username" LIKE 'crowd\\_%' ESCAPE '\\'`;
    });
    // Each bot joins the crowd before anything counts its reach (counts are cached for a minute).
    const joinCrowd = async (name: string) => {
      const { application } = await caller.application.create({ name });
      const { botUserId } = await app.db.application.findUniqueOrThrow({ where: { id: application.id }, select: { botUserId: true } });
      await addMember(app.db, guild.id, botUserId);
      return application.id;
    };

    const grown = await joinCrowd("Crowd Bot");
    const refused = await mutationError(user.id, "application.setIntent", { applicationId: grown, intent: "GUILD_MEMBERS", enabled: true });
    expect(refused).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { flags: { _errors: [{ code: "APPLICATION_INTENTS_REVIEW_REQUIRED" }] } } });
    expect(await caller.application.get({ applicationId: grown })).toMatchObject({ reach: INTENT_REVIEW_THRESHOLD + 2, intents: { GUILD_MEMBERS: "off" } });

    // An app that switched the intent on while small keeps the flag, without effect, until it switches it off.
    const early = await joinCrowd("Early Bot");
    await runChange({ db: app.db, actor: null }, async ({ tx, emit }) => {
      await tx.application.update({ where: { id: early }, data: { flags: ApplicationFlags.GatewayPresenceLimited } });
      await emit(InternalEvents.ApplicationUpdated, { application_id: early });
    });
    expect((await caller.application.get({ applicationId: early })).intents.PRESENCE).toBe("needs_review");
    expect((await caller.application.setIntent({ applicationId: early, intent: "PRESENCE", enabled: false })).intents.PRESENCE).toBe("off");
  });
});

describe("PATCH /applications/@me description and icon", () => {
  it("sets them through the same edit as the dashboard; a bad one is 50035 and changes nothing", async () => {
    const { caller } = await dashboardUser();
    const { application, botToken } = await caller.application.create({ name: "Rest Bot" });
    const api = app.as(bot(botToken));
    const refused = await api.patch("/applications/@me", { description: "d".repeat(401), flags: 1 << 15 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 50035, errors: { description: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } });
    expect((await api.get("/applications/@me")).body).toMatchObject({ description: "", flags: 0 });

    const res = await api.patch("/applications/@me", { description: "Set over REST", icon: PNG, flags: 1 << 15 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: "Set over REST", icon: expect.stringMatching(/^[0-9a-f]{32}$/), flags: 1 << 15 });
    expect(await caller.application.get({ applicationId: application.id })).toMatchObject({
      description: "Set over REST",
      icon: res.body.icon,
      intents: { GUILD_MEMBERS: "limited" },
    });
    expect((await api.patch("/applications/@me", { icon: null })).body.icon).toBeNull();
  });
});
