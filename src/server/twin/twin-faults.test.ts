import { describe, expect, it } from "vitest";
import { faultReaches } from "~/server/gateway/gateway-faults.ts";
import type { GatewaySessionView } from "~/server/gateway/gateway-types.ts";
import type { Route } from "~/server/rest/route.ts";
import { createTwinFaults, faultMatches, takeFault, type FaultRequest, type FaultRule } from "./twin-faults.ts";
import { ZFaultRuleInputSchema, ZGatewayFaultInputSchema } from "./twin-faults.schema.ts";

const SEND: FaultRequest = {
  method: "POST",
  route: "/channels/:channelId/messages",
  params: { channelId: "10" },
  applicationId: "77",
  bucket: "POST /channels/:channelId/messages",
};

function rule(fields: Partial<FaultRule> = {}): FaultRule {
  return { id: "1", match: {}, effect: { type: "error", status: 503 }, times: null, probability: 1, remaining: null, hits: 0, ...fields };
}

describe("a fault's match", () => {
  it("catches every call when empty", () => {
    expect(faultMatches({}, SEND)).toBe(true);
  });

  it("needs every field it names to agree: method, route, params, application", () => {
    expect(faultMatches({ method: "POST", route: "/channels/:channelId/messages", params: { channelId: "10" }, application_id: "77" }, SEND)).toBe(true);
    expect(faultMatches({ method: "GET" }, SEND)).toBe(false);
    expect(faultMatches({ route: "/channels/:channelId" }, SEND)).toBe(false);
    expect(faultMatches({ params: { channelId: "11" } }, SEND)).toBe(false);
    expect(faultMatches({ params: { guildId: "10" } }, SEND)).toBe(false);
    expect(faultMatches({ application_id: "78" }, SEND)).toBe(false);
    expect(faultMatches({ application_id: "77" }, { ...SEND, applicationId: null })).toBe(false);
  });
});

describe("taking a fault", () => {
  it("is the first matching rule with tries left, counted down to 0 and kept", () => {
    const other = rule({ id: "other", match: { method: "GET" } });
    const twice = rule({ id: "twice", times: 2, remaining: 2 });
    const after = rule({ id: "after" });
    const rules = [other, twice, after];
    expect(takeFault(rules, SEND, () => 0)?.id).toBe("twice");
    expect(takeFault(rules, SEND, () => 0)?.id).toBe("twice");
    expect(twice).toMatchObject({ remaining: 0, hits: 2 });
    expect(takeFault(rules, SEND, () => 0)?.id).toBe("after");
    expect(other.hits).toBe(0);
  });

  it("rolls a rule's probability: a failed roll spends nothing and lets the next rule try", () => {
    const half = rule({ id: "half", probability: 0.5, times: 1, remaining: 1 });
    const rules = [half];
    expect(takeFault(rules, SEND, () => 0.5)).toBeNull();
    expect(half).toMatchObject({ remaining: 1, hits: 0 });
    expect(takeFault([half, rule({ id: "next" })], SEND, () => 0.7)?.id).toBe("next");
    expect(takeFault(rules, SEND, () => 0.49)?.id).toBe("half");
    expect(half).toMatchObject({ remaining: 0, hits: 1 });
  });
});

describe("the twin's fault rules", () => {
  const route = { method: "POST", path: "/channels/:channelId/messages", auth: "any", handler: () => Promise.reject(new Error("not called")) } as Route;
  const bot = { kind: "bot", userId: "5", applicationId: "77", scopes: new Set<string>() } as const;

  it("answer with the platform's 429 and count hits against the random source given", async () => {
    const rolls = [0.9, 0.1];
    const faults = createTwinFaults(() => rolls.shift() ?? 0);
    const added = faults.add(ZFaultRuleInputSchema.parse({ effect: { type: "rate_limit", retry_after: 1.5 }, times: 3, probability: 0.5 }));
    expect(added).toMatchObject({ remaining: 3, hits: 0, times: 3, probability: 0.5 });
    expect(await faults.answer(route, { channelId: "10" }, bot)).toBeNull();
    const limited = await faults.answer(route, { channelId: "10" }, bot);
    expect(limited?.status).toBe(429);
    expect(limited?.headers).toMatchObject({ "retry-after": "2", "x-ratelimit-scope": "user", "x-ratelimit-remaining": "0" });
    expect(JSON.parse(String(limited?.body))).toEqual({ message: "You are being rate limited.", retry_after: 1.5, global: false });
    expect(faults.list()).toEqual([{ ...added, remaining: 2, hits: 1 }]);
  });

  it("are removed one by one or all at once", () => {
    const faults = createTwinFaults();
    const first = faults.add(ZFaultRuleInputSchema.parse({ effect: { type: "delay", ms: 10 } }));
    faults.add(ZFaultRuleInputSchema.parse({ effect: { type: "error", status: 500 } }));
    expect(faults.remove("nope")).toBe(false);
    expect(faults.remove(first.id)).toBe(true);
    expect(faults.list()).toHaveLength(1);
    faults.clear();
    expect(faults.list()).toEqual([]);
  });
});

describe("fault bodies", () => {
  it("take routes of the route table and their parameters only", () => {
    const effect = { type: "error", status: 503 };
    expect(ZFaultRuleInputSchema.safeParse({ match: { route: "/channels/:channelId/messages", params: { channelId: "1" } }, effect }).success).toBe(true);
    expect(ZFaultRuleInputSchema.safeParse({ match: { route: "/channels/:id/messages" }, effect }).success).toBe(false);
    expect(ZFaultRuleInputSchema.safeParse({ match: { route: "/channels/:channelId/messages", params: { guildId: "1" } }, effect }).success).toBe(false);
    expect(ZFaultRuleInputSchema.safeParse({ effect: { type: "error", status: 418 } }).success).toBe(false);
    expect(ZFaultRuleInputSchema.safeParse({ effect: { type: "rate_limit", retry_after: 0 } }).success).toBe(false);
    expect(ZFaultRuleInputSchema.safeParse({ effect: { type: "delay", ms: 60_001 } }).success).toBe(false);
    expect(ZFaultRuleInputSchema.safeParse({ effect, probability: 0 }).success).toBe(false);
    expect(ZFaultRuleInputSchema.safeParse({ effect, times: 0 }).success).toBe(false);
  });

  it("close sessions with the platform's codes or the protocol's sendable ones", () => {
    const close = (code: number) => ZGatewayFaultInputSchema.safeParse({ action: { type: "close", code } }).success;
    expect([4000, 4009, 4014, 1000, 1001, 1011].every(close)).toBe(true);
    expect([4006, 4015, 3000, 1005, 1006, 1015, 999].some(close)).toBe(false);
  });
});

describe("a gateway fault's reach", () => {
  const session = { sessionId: "s1", applicationId: "77", shard: [1, 2] } as unknown as GatewaySessionView;

  it("is every session unless narrowed by application, session or shard", () => {
    expect(faultReaches({}, session)).toBe(true);
    expect(faultReaches({ application_id: "77", session_id: "s1", shard: 1 }, session)).toBe(true);
    expect(faultReaches({ application_id: "78" }, session)).toBe(false);
    expect(faultReaches({ session_id: "s2" }, session)).toBe(false);
    expect(faultReaches({ shard: 0 }, session)).toBe(false);
  });
});
