// Every row of the REST route table, called by everyone it is not for: nobody, a token of
// the wrong kind, a caller outside the guild (application, lobby), and a member without
// the route's permission. Each is refused with 401, 403 or 404 in the error envelope and
// changes nothing, unless the row's `open` says that caller may, and then it is answered.
// A new row is walked the day it is added.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installChangeLog, type ChangeLog } from "~/test/change-log.ts";
import { sendRoute, type RouteInput } from "~/test/route-input.ts";
import { authorizedCaller, buildWorld, CALLERS, fillPath, makeCaller, type CallerName, type World } from "~/test/route-world.ts";
import { useTestApp } from "~/test/test-app.ts";
import { validArbitrary } from "~/test/zod-arbitrary.ts";
import type { Route } from "./route.ts";
import { ROUTES } from "./routes.ts";

const app = useTestApp({ rateLimitScale: 1_000_000 });
let world: World;
let changes: ChangeLog;
let requests = 0;

beforeAll(async () => {
  changes = await installChangeLog(app.db, app.url);
  world = await buildWorld(app);
}, 120_000);

afterAll(() => {
  console.log(
    `route access matrix: ${ROUTES.length} routes x ${CALLERS.length} callers = ${ROUTES.length * CALLERS.length} refusals checked, ${requests} requests in all`,
  );
});

/** How far a row's `open` reaches: a caller at or below it may call the route. */
const REACH: Record<CallerName, number> = { member: 1, outsider: 2, otherKind: 3, anonymous: 4 };
const OPEN_REACH = { member: 1, outsider: 2, token: 3, anyone: 4 } as const;

function openTo(route: Route, caller: CallerName): boolean {
  return route.open ? REACH[caller] <= OPEN_REACH[route.open.to] : false;
}

/**
 * A request each row takes as valid, so what refuses a caller is who they are and not what
 * they sent: given here where the row's schema cannot tell (bodies read by the handler) or
 * where a body exercises the route's permission (a nickname needs CHANGE_NICKNAME);
 * otherwise an empty query and body, or a value built from the schema.
 */
function samples(w: World): Record<string, RouteInput> {
  const start = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
  const end = new Date(Date.now() + 25 * 60 * 60 * 1000).toISOString();
  return {
    "POST /guilds": { body: { name: "another guild" } },
    "PATCH /guilds/:guildId": { body: { name: "renamed" } },
    "POST /guilds/:guildId/channels": { body: { name: "new-channel" } },
    "PATCH /guilds/:guildId/channels": { body: [{ id: w.channels.forum, position: 3 }] },
    "PATCH /channels/:channelId": { body: { name: "renamed" } },
    "POST /channels/:channelId/threads": { body: { name: "new thread", type: 11 } },
    "POST /channels/:channelId/messages": { body: { content: "hello" } },
    "PATCH /channels/:channelId/messages/:messageId": { body: { content: "edited" } },
    "PUT /channels/:channelId/voice-status": { body: { status: "live" } },
    "POST /guilds/:guildId/roles": { body: { name: "new role" } },
    "PATCH /guilds/:guildId/roles": { body: [{ id: w.role, position: 1 }] },
    "PATCH /guilds/:guildId/roles/:roleId": { body: { name: "renamed" } },
    "GET /guilds/:guildId/members/search": { query: { query: "user" } },
    "PATCH /guilds/:guildId/members/@me": { body: { nick: "nickname" } },
    "PATCH /guilds/:guildId/members/@me/nick": { body: { nick: "nickname" } },
    "PUT /guilds/:guildId/members/:userId": { body: { access_token: "not-a-token" } },
    "PATCH /guilds/:guildId/members/:userId": { body: { nick: "nickname" } },
    "PATCH /guilds/:guildId/member-verification": { body: { enabled: true } },
    "POST /guilds/:guildId/bulk-ban": { body: { user_ids: [w.target] } },
    "POST /guilds/:guildId/prune": { body: { days: 1 } },
    "PATCH /guilds/:guildId/vanity-url": { body: { code: "worldvanity" } },
    "PUT /invites/:code/target-users": { form: { target_users_file: { file: `user_id\n${w.target}\n` } } },
    "POST /invites/:code/target-users/bulk-add": { body: { user_ids: [w.target] } },
    "POST /invites/:code/target-users/bulk-delete": { body: { user_ids: [w.target] } },
    "PUT /guilds/:guildId/incident-actions": { body: { invites_disabled_until: null } },
    "PATCH /guilds/:guildId/welcome-screen": { body: { description: "welcome" } },
    "PUT /guilds/:guildId/onboarding": { body: { enabled: false } },
    "PATCH /guilds/:guildId/widget": { body: { enabled: true } },
    "POST /guilds/:guildId/scheduled-events": {
      body: { name: "event", privacy_level: 2, entity_type: 3, scheduled_start_time: start, scheduled_end_time: end, entity_metadata: { location: "here" } },
    },
    "PATCH /applications/@me": { body: { description: "changed" } },
    "POST /channels/:channelId/webhooks": { body: { name: "hook" } },
    "POST /channels/:channelId/followers": { body: { webhook_channel_id: w.channels.text } },
    "PATCH /webhooks/:webhookId": { body: { name: "renamed" } },
    "PATCH /webhooks/:webhookId/:token": { body: { name: "renamed" } },
    "POST /webhooks/:webhookId/:token": { body: { content: "hello" } },
    "PATCH /webhooks/:webhookId/:token/messages/:messageId": { body: { content: "edited" } },
    "POST /webhooks/:webhookId/:token/slack": { body: { text: "hello" } },
    "POST /webhooks/:webhookId/:token/github": {
      body: { zen: "Keep it simple.", hook_id: 1, sender: { login: "octocat" } },
      headers: { "x-github-event": "ping" },
    },
    "PUT /lobbies": { body: { secret: "secret" } },
    "PATCH /lobbies/:lobbyId": { body: { metadata: { round: "2" } } },
    "POST /lobbies/:lobbyId/members/bulk": { body: [{ id: w.target }] },
    "PATCH /lobbies/:lobbyId/channel-linking": { body: { channel_id: w.channels.text } },
    "POST /lobbies/:lobbyId/messages": { body: { content: "hello" } },
    "PUT /lobbies/:lobbyId/messages/:messageId/moderation-metadata": { body: { verdict: "ok" } },
  };
}

function valid(route: Route, part: "query" | "body", sample: unknown): unknown {
  const schema = route[part];
  const candidate = sample ?? (part === "query" ? {} : undefined);
  if (!schema || schema.safeParse(candidate).success) return candidate;
  if (sample !== undefined) throw new Error(`${route.method} ${route.path}: its sample ${part} is not valid: ${schema.safeParse(candidate).error!.message}`);
  const built = fc.sample(validArbitrary(schema, { ids: world.ids }), { numRuns: 500, seed: 1 }).find((each) => schema.safeParse(each).success);
  if (built === undefined)
    throw new Error(`${route.method} ${route.path}: no valid ${part} could be built; give the row a sample in route-access.integration-test.ts`);
  return built;
}

function inputFor(route: Route): RouteInput {
  const sample = samples(world)[`${route.method} ${route.path}`] ?? {};
  if (sample.form) return sample;
  return { ...sample, query: valid(route, "query", sample.query) as RouteInput["query"], body: valid(route, "body", sample.body) };
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
      const input = inputFor(route);
      const problems: string[] = [];
      for (const name of CALLERS) {
        const caller = await makeCaller(app, world, route, name);
        const path = fillPath(world, route, caller.params);
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
          problems.push(`${name}: ${open ? "answered as a no-op" : "refused"}, yet rows changed: ${JSON.stringify(changed)}`);
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
