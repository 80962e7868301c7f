import { setTimeout as sleep } from "node:timers/promises";
import type { HttpResponse } from "~/server/http/http-types.ts";
import { json, rateLimited, type RestFaults } from "~/server/rest/dispatch.ts";
import type { HttpMethod } from "~/server/rest/route.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import type { FaultEffect, FaultMatch, FaultRuleInput } from "./twin-faults.schema.ts";

/** One REST call as a fault sees it: once its route matched and its caller is known. */
export type FaultRequest = {
  method: HttpMethod;
  /** The route's template, as the route table writes it. */
  route: string;
  params: Readonly<Record<string, string>>;
  /** The caller's application (a bot's, or a bearer token's); null without one. */
  applicationId: string | null;
  /** The rate-limit bucket the route counts in, named in a fault's 429 as the limiter's own would. */
  bucket: string;
};

/** A fault rule as the twin API shows it: `remaining` null is unlimited; a spent rule stays listed with 0. */
export type FaultRule = {
  id: string;
  match: FaultMatch;
  effect: FaultEffect;
  times: number | null;
  probability: number;
  remaining: number | null;
  hits: number;
};

/**
 * Test mode's REST faults (twin.faults): rules held in the process, asked by the dispatcher on
 * every call (`answer`, which waits out a delay fault before it goes on).
 */
export type TwinFaults = RestFaults & {
  add(input: FaultRuleInput): FaultRule;
  list(): FaultRule[];
  /** False when no rule has this id. */
  remove(id: string): boolean;
  clear(): void;
};

/** Whether a rule's match catches this call: every field given must agree. */
export function faultMatches(match: FaultMatch, request: FaultRequest): boolean {
  if (match.method !== undefined && match.method !== request.method) return false;
  if (match.route !== undefined && match.route !== request.route) return false;
  if (match.application_id !== undefined && match.application_id !== request.applicationId) return false;
  return Object.entries(match.params ?? {}).every(([name, value]) => request.params[name] === value);
}

/**
 * The rule that answers this call, spent by one: the first that matches, has tries left and
 * passes its probability roll (`random` in [0, 1)). A rule whose roll fails lets the next try.
 */
export function takeFault(rules: readonly FaultRule[], request: FaultRequest, random: () => number): FaultRule | null {
  for (const rule of rules) {
    if (rule.remaining === 0 || !faultMatches(rule.match, request)) continue;
    if (rule.probability < 1 && random() >= rule.probability) continue;
    if (rule.remaining !== null) rule.remaining--;
    rule.hits++;
    return rule;
  }
  return null;
}

const ERROR_MESSAGES = { 500: "500: Internal Server Error", 502: "502: Bad Gateway", 503: "503: Service Unavailable", 504: "504: Gateway Timeout" } as const;

/** A fault's answer: the platform's 429 (through the dispatcher's own), a 5xx in its error envelope, or nothing after a wait. */
async function respond(effect: FaultEffect, request: FaultRequest): Promise<HttpResponse | null> {
  switch (effect.type) {
    case "rate_limit":
      return rateLimited({
        limit: 1,
        remaining: 0,
        resetAfterMs: effect.retry_after * 1000,
        bucket: effect.global ? "global" : request.bucket,
        limited: true,
        global: effect.global,
      });
    case "error":
      return json(effect.status, { code: 0, message: ERROR_MESSAGES[effect.status] });
    case "delay":
      await sleep(effect.ms);
      return null;
  }
}

export function createTwinFaults(random: () => number = Math.random): TwinFaults {
  const rules: FaultRule[] = [];
  return {
    add(input) {
      const times = input.times ?? null;
      const rule: FaultRule = { id: newId(), match: input.match, effect: input.effect, times, probability: input.probability, remaining: times, hits: 0 };
      rules.push(rule);
      return { ...rule };
    },
    list: () => rules.map((rule) => ({ ...rule })),
    remove(id) {
      const index = rules.findIndex((rule) => rule.id === id);
      if (index >= 0) rules.splice(index, 1);
      return index >= 0;
    },
    clear() {
      rules.length = 0;
    },
    async answer(route, params, actor) {
      if (rules.length === 0) return null;
      const request: FaultRequest = {
        method: route.method,
        route: route.path,
        params,
        applicationId: actor?.applicationId ?? null,
        // The dispatcher's own name for the route's bucket.
        bucket: route.bucket ?? `${route.method} ${route.path}`,
      };
      const rule = takeFault(rules, request, random);
      return rule ? respond(rule.effect, request) : null;
    },
  };
}
