import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import type { Db } from "~/server/db/client.ts";
import { makeGuild, makeUser } from "~/test/factories.ts";
import { inOneBatch } from "~/test/one-batch.ts";
import { useTestApp } from "~/test/test-app.ts";
import { createTRPCContext, type TRPCContext } from "./init.ts";
import { appRouter, createCaller } from "./root.ts";

// What the dashboard is told when a procedure fails: domain errors keep their text; a
// failure nobody meant gets a generic message whose id the server log has with the cause.

const app = useTestApp();
const SECRET = "SQLITE_CORRUPT: database disk image is malformed (/srv/guildhall/data/guildhall.db)";
const GENERIC = /^Something went wrong \(error id ([0-9a-f]{8})\)$/;

/** The test database, except that reading memberships fails the way a broken database would. */
function brokenDb(): Db {
  const failing = { findMany: () => Promise.reject(new Error(SECRET)) };
  return new Proxy(app.db, { get: (target, prop) => (prop === "member" ? failing : Reflect.get(target, prop)) as unknown });
}

/** The ids of `[trpc] ... failed (error id X)` lines logged with SECRET as their cause. */
type ErrorLog = { mock: { calls: unknown[][] } };

function loggedIds(log: ErrorLog): string[] {
  return log.mock.calls.flatMap(([line, cause]) => {
    const id = /\(error id ([0-9a-f]{8})\)/.exec(String(line))?.[1];
    return id && cause instanceof Error && cause.message === SECRET ? [id] : [];
  });
}

function callOverHttp(
  db: Db,
  userId: string,
  path: string,
  input?: unknown,
  createContext: () => Promise<TRPCContext> | TRPCContext = () => createTRPCContext({ db, userId }),
): Promise<Response> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return fetchRequestHandler({ endpoint: "/api/trpc", req: new Request(`http://dashboard.test/api/trpc/${path}${query}`), router: appRouter, createContext });
}

async function expectGenericOverHttp(response: Response, log: ErrorLog): Promise<void> {
  expect(response.status).toBe(500);
  const text = await response.text();
  expect(text).not.toContain("SQLITE");
  expect(text).not.toContain("/srv/");
  const { error } = JSON.parse(text) as { error: { message: string; data: { code: string } } };
  expect(error.data.code).toBe("INTERNAL_SERVER_ERROR");
  expect(error.message).toMatch(GENERIC);
  expect(loggedIds(log)).toEqual([GENERIC.exec(error.message)?.[1]]);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("unexpected errors", () => {
  it("reach the server caller as a generic message with the id the log has the cause under", async () => {
    const { user } = await makeUser(app.db);
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failure = await createCaller(createTRPCContext({ db: brokenDb(), userId: user.id }))
      .guild.list()
      .then(
        () => new Error("the call succeeded"),
        (error: unknown) => error as Error,
      );
    expect(failure.message).toMatch(GENERIC);
    expect(loggedIds(log)).toEqual([GENERIC.exec(failure.message)?.[1]]);
  });

  it("reach the browser without their text", async () => {
    const { user } = await makeUser(app.db);
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expectGenericOverHttp(await callOverHttp(brokenDb(), user.id, "guild.list"), log);
  });

  it("outside any procedure (the request's context failing) are answered the same way", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failing = () => Promise.reject(new Error(SECRET));
    await expectGenericOverHttp(await callOverHttp(app.db, "0", "guild.list", undefined, failing), log);
  });
});

describe("deliberate errors", () => {
  it("keep their message and code: a domain error, invalid input, signing in", async () => {
    const { user } = await makeUser(app.db);
    const unknown = await callOverHttp(app.db, user.id, "guild.get", { guildId: "1" });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe("Unknown Guild");

    const invalid = await callOverHttp(app.db, user.id, "guild.get", { guildId: "not a snowflake" });
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { error: { message: string; data: { domainCode: number } } };
    expect(body.error.data.domainCode).toBe(50035);
    expect(body.error.message).not.toMatch(GENERIC);

    await expect(createCaller(createTRPCContext({ db: app.db, userId: null })).guild.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("a row another request removed meanwhile", () => {
  it("is NOT_FOUND, as REST answers it, not a failure", async () => {
    const { user } = await makeUser(app.db);
    const guild = await makeGuild(app.db, dashboardActor(user.id));
    const caller = createCaller(createTRPCContext({ db: app.db, userId: user.id }));
    // Records the owner's activity, so each delete below makes the only change of its call.
    await caller.guild.get({ guildId: guild.id });
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // Both find the guild; the first to be written deletes it, the second's delete finds no row (P2025).
    const outcomes = await inOneBatch(app.runtime, [() => caller.guild.delete({ guildId: guild.id }), () => caller.guild.delete({ guildId: guild.id })]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: "NOT_FOUND", message: "404: Not Found" });
    expect(log).not.toHaveBeenCalled();
  });
});
