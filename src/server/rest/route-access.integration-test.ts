// Every row of the REST route table, called by everyone it is not for: nobody, a token of
// the wrong kind, a caller outside the guild (application, lobby), and a member without
// the route's permission. Each is refused with 401, 403 or 404 in the error envelope and
// changes nothing, unless the row's `open` says that caller may, and then it is answered.
// A new row is walked the day it is added.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installChangeLog, type ChangeLog } from "~/test/change-log.ts";
import { sendRoute } from "~/test/route-input.ts";
import { sampleInput } from "~/test/route-samples.ts";
import { authorizedCaller, buildWorld, CALLERS, fillPath, makeCaller, type CallerName, type World } from "~/test/route-world.ts";
import { useTestApp } from "~/test/test-app.ts";
import type { Route } from "./route.ts";
import { ROUTES } from "./routes.ts";
import { afterCommitWorkDone } from "~/server/events/change.ts";

const app = useTestApp({ rateLimitScale: 1_000_000 });
let world: World;
let changes: ChangeLog;
let requests = 0;

beforeAll(async () => {
  changes = await installChangeLog(app.db, app.url);
  world = await buildWorld(app);
}, 120_000);

afterAll(() => {
  const calls = ROUTES.length * CALLERS.length;
  console.log(
    `route access matrix: ${ROUTES.length} routes x ${CALLERS.length} callers = ${calls} calls, and ${requests - calls} reads by each GET row's own caller`,
  );
});

/** How far a row's `open` reaches: a caller at or below it may call the route. */
const REACH: Record<CallerName, number> = { member: 1, outsider: 2, otherKind: 3, anonymous: 4 };
const OPEN_REACH = { member: 1, outsider: 2, token: 3, anyone: 4 } as const;

function openTo(route: Route, caller: CallerName): boolean {
  return route.open ? REACH[caller] <= OPEN_REACH[route.open.to] : false;
}

const isEnvelope = (body: unknown) =>
  typeof body === "object" &&
  body !== null &&
  typeof (body as { code?: unknown }).code === "number" &&
  typeof (body as { message?: unknown }).message === "string";

describe("every route refuses everyone it is not for", () => {
  it("names a reason for every open row", () => {
    for (const route of ROUTES) if (route.open) expect(route.open.why.trim(), `${route.method} ${route.path}`).not.toBe("");
  });

  for (const route of ROUTES) {
    it(`${route.method} ${route.path}`, { timeout: 60_000 }, async () => {
      const input = sampleInput(world, route);
      const problems: string[] = [];
      for (const name of CALLERS) {
        const caller = await makeCaller(app, world, route, name);
        const path = fillPath(world, route, caller.params);
        // Work an earlier accepted request left to run after its commit (removing replaced files) is not this one's.
        await afterCommitWorkDone();
        const mark = await changes.mark();
        const res = await sendRoute(app, route, path, caller.authorization, input);
        requests += 1;
        const answer = `${res.status} ${res.headers.get("content-type")?.includes("json") ? JSON.stringify(res.body).slice(0, 200) : `(${res.headers.get("content-type")})`}`;
        const open = openTo(route, name);
        if (open && res.status >= 300) problems.push(`${name}: the row is open to ${route.open!.to} (${route.open!.why}) but answered ${answer}`);
        if (!open && (![401, 403, 404].includes(res.status) || !isEnvelope(res.body)))
          problems.push(`${name}: expected 401/403/404 in the error envelope, got ${answer}`);
        if (open && !route.open!.noop) continue;
        const changed = await changes.since(mark);
        if (Object.keys(changed).length > 0)
          problems.push(`${name}: ${open ? "answered as a no-op" : "not theirs to call"}, yet rows changed: ${JSON.stringify(changed)}`);
      }
      // The world is real: a read by the caller the row is for succeeds with the same parameters.
      if (route.method === "GET") {
        const caller = authorizedCaller(world, route);
        const res = await sendRoute(app, route, fillPath(world, route, caller.params), caller.authorization, input);
        requests += 1;
        if (res.status >= 300) problems.push(`authorized: the row's own caller answered ${res.status} ${JSON.stringify(res.body)}`);
      }
      expect(problems).toEqual([]);
    });
  }
});
