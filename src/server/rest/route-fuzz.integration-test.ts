// Every row of the route table, sent values its query and body schemas take and broken
// ones (wrong types, huge strings and arrays, deep nesting, prototype-named keys, unusual
// text, numbers at the edges), and odd path parameters, by the caller the row is for. No
// answer is ever a 5xx, and a refused request changes no row. Rows with a body or query
// get a world of their own, so what valid values change (a ban, a new owner) stays there.
// A fixed seed by default, so a run is repeatable; FUZZ_SEED=random explores new values (and
// prints its seed to repeat it), FUZZ_SEED=N repeats one; FUZZ_RUNS sets the requests per row.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { ZChannelModifyBodySchema } from "~/server/channels/channel.schema.ts";
import { ZCreateMessageBodySchema, ZEditMessageBodySchema } from "~/server/messages/message.schema.ts";
import { ZThreadCreateBodySchema } from "~/server/threads/thread.schema.ts";
import { ZWebhookExecuteBodySchema } from "~/server/webhooks/webhook-execute.schema.ts";
import { SUPPORTED_GITHUB_EVENTS } from "~/server/webhooks/webhook-github.ts";
import { ZWebhookMessageEditBodySchema } from "~/server/webhooks/webhook-message.schema.ts";
import { ZSlackPayloadSchema } from "~/server/webhooks/webhook-slack.ts";
import { installChangeLog, type ChangeLog } from "~/test/change-log.ts";
import { sendRoute, type RouteInput } from "~/test/route-input.ts";
import { sampleInput } from "~/test/route-samples.ts";
import { authorizedCaller, buildWorld, fillPath, type World } from "~/test/route-world.ts";
import { useTestApp } from "~/test/test-app.ts";
import { testProvider } from "~/test/test-db.ts";
import { brokenJson, NASTY_JSON, NASTY_STRINGS, PROTOTYPE_KEYS, validArbitrary, type Hints } from "~/test/zod-arbitrary.ts";
import type { Route } from "./route.ts";
import { ROUTES } from "./routes.ts";
import { afterCommitWorkDone } from "~/server/events/change.ts";

const app = useTestApp({ rateLimitScale: 1_000_000 });
// The same file runs on both databases: PostgreSQL takes half the values from other seeds, so
// the two runs together try more values than either alone, for half the time again.
const ON_POSTGRES = testProvider() === "postgresql";
const BASE_SEED = process.env.FUZZ_SEED === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20261125);
const SEED = BASE_SEED + (ON_POSTGRES ? 1_000_003 : 0);
const RUNS = Number(process.env.FUZZ_RUNS ?? (ON_POSTGRES ? 20 : 40));
const tally = { requests: 0, accepted: 0, refused: 0, serverErrors: 0 };
let changes: ChangeLog;

beforeAll(async () => {
  changes = await installChangeLog(app.db, app.url);
});

afterAll(() => {
  console.log(
    `route fuzzing (seed ${BASE_SEED}): ${tally.requests} requests, ${tally.accepted} accepted, ${tally.refused} refused, ${tally.serverErrors} answers >= 500`,
  );
});

/** Rows whose handler reads the body with a schema of its own (the row takes any JSON or a form). */
const BODY_READ_WITH: Record<string, z.ZodType> = {
  "PATCH /channels/:channelId": ZChannelModifyBodySchema,
  "POST /channels/:channelId/threads": ZThreadCreateBodySchema,
  "POST /channels/:channelId/messages": ZCreateMessageBodySchema,
  "PATCH /channels/:channelId/messages/:messageId": ZEditMessageBodySchema,
  "POST /webhooks/:webhookId/:token": ZWebhookExecuteBodySchema,
  "PATCH /webhooks/:webhookId/:token/messages/:messageId": ZWebhookMessageEditBodySchema,
  "POST /webhooks/:webhookId/:token/slack": ZSlackPayloadSchema,
};

/** Headers a row reads: the code host names its event in one. */
function headersFor(route: Route): fc.Arbitrary<Record<string, string>> {
  if (route.path.endsWith("/github")) return fc.constantFrom(...SUPPORTED_GITHUB_EVENTS, "ping", "__proto__", "").map((event) => ({ "x-github-event": event }));
  return fc.constant({});
}

/** A query as sent: every value text, a list as the parameter repeated. */
function asQuery(value: unknown): Record<string, string | string[]> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  const text = (each: unknown) => (typeof each === "string" ? each : (JSON.stringify(each) ?? ""));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, each]) => each !== undefined)
      .map(([key, each]) => [key, Array.isArray(each) ? each.map(text) : text(each)]),
  );
}

const nastyText = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.constant("a".repeat(100_000)), fc.string({ unit: "binary", maxLength: 40 }));

/** Requests for one row: valid ones, ones with a broken body, ones with a broken query. */
function requests(route: Route, hints: Hints): fc.Arbitrary<RouteInput> {
  const bodySchema = BODY_READ_WITH[`${route.method} ${route.path}`] ?? route.body;
  const body = bodySchema ? validArbitrary(bodySchema, hints) : fc.constant(undefined);
  const query = route.query ? validArbitrary(route.query, hints).map(asQuery) : fc.constant({});
  const headers = headersFor(route);
  const kinds: fc.WeightedArbitrary<RouteInput>[] = [{ weight: 2, arbitrary: fc.record({ query, body, headers }) }];
  if (bodySchema) kinds.push({ weight: 3, arbitrary: fc.record({ query, rawJson: brokenJson(body), headers }) });
  if (route.query) {
    const key = fc.oneof(
      fc.constantFrom(...Object.keys((route.query as unknown as { shape?: object }).shape ?? {}), ...PROTOTYPE_KEYS),
      fc.constantFrom(...NASTY_STRINGS),
    );
    const value = fc.oneof(nastyText, fc.array(nastyText, { minLength: 2, maxLength: 5 }), fc.constant(Array.from({ length: 1000 }, () => "1")));
    const broken = fc.tuple(query, key, value).map(([valid, name, bad]) => ({ ...valid, [name]: bad }));
    kinds.push({ weight: 2, arbitrary: fc.record({ query: broken, body, headers }) });
  }
  return fc.oneof(...kinds);
}

/** Path parameter values no resource has. */
const ODD_PARAMS = [
  "0",
  "-1",
  "\u0000",
  "99999999999999999999",
  "18446744073709551616",
  "1e3",
  "abc",
  "__proto__",
  "constructor",
  "😀",
  "a".repeat(5000),
  " 1",
  "1.5",
  "%",
  "@me",
];

type Sent = { what: string; res: { status: number; body: unknown }; changed: Record<string, number> };

async function send(route: Route, path: string, authorization: string | undefined, input: RouteInput): Promise<Sent> {
  // Work an earlier accepted request left to run after its commit (removing replaced files) is not this one's.
  await afterCommitWorkDone();
  const mark = await changes.mark();
  const res = await sendRoute(app, route, path, authorization, input);
  tally.requests += 1;
  if (res.status >= 500) tally.serverErrors += 1;
  else if (res.status >= 400) tally.refused += 1;
  else tally.accepted += 1;
  const changed = res.status >= 400 ? await changes.since(mark) : {};
  const what = `${path.slice(0, 120)} ${JSON.stringify({ ...input, rawJson: input.rawJson === undefined ? undefined : brief(input.rawJson) }).slice(0, 400)}`;
  return { what, res, changed };
}

/** Long text as its start, its end and its length. */
const brief = (text: string) => (text.length <= 160 ? text : `${text.slice(0, 60)}…${text.slice(-60)} (${text.length} chars)`);

function problemsOf(sent: Sent): string[] {
  const problems: string[] = [];
  if (sent.res.status >= 500) problems.push(`${sent.res.status} for ${sent.what}`);
  if (sent.res.status >= 400 && Object.keys(sent.changed).length > 0) {
    problems.push(
      `refused with ${sent.res.status} ${JSON.stringify(sent.res.body).slice(0, 200)}, yet rows changed ${JSON.stringify(sent.changed)}: ${sent.what}`,
    );
  }
  return problems;
}

const FUZZED = ROUTES.filter((route) => route.query !== undefined || route.body !== undefined);

describe("no input makes a route fail or change anything it refuses", () => {
  FUZZED.forEach((route, index) => {
    it(`${route.method} ${route.path}`, { timeout: 120_000 }, async () => {
      const world = await buildWorld(app);
      const caller = authorizedCaller(world, route);
      const path = fillPath(world, route, caller.params);
      const problems: string[] = [];
      for (const input of fc.sample(requests(route, { ids: world.ids }), { numRuns: RUNS, seed: SEED + index })) {
        problems.push(...problemsOf(await send(route, path, caller.authorization, input)));
      }
      // Every broken value once as the whole body.
      if (route.body) for (const rawJson of NASTY_JSON) problems.push(...problemsOf(await send(route, path, caller.authorization, { rawJson })));
      expect(problems).toEqual([]);
    });
  });

  it("odd path parameters", { timeout: 300_000 }, async () => {
    const world: World = await buildWorld(app);
    const problems: string[] = [];
    for (const route of ROUTES) {
      const caller = authorizedCaller(world, route);
      const input = sampleInput(world, route);
      for (const name of route.path.match(/:\w+/g) ?? []) {
        for (const value of ODD_PARAMS) {
          const path = fillPath(world, route, { ...caller.params, [name.slice(1)]: value });
          problems.push(...problemsOf(await send(route, path, caller.authorization, input)));
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
