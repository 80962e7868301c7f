import { z } from "zod";
import { CLOSE_CODES, PROTOCOL_CLOSE_CODES, type CloseCode } from "~/server/gateway/close-codes.ts";
import { ROUTES } from "~/server/rest/routes.ts";

/** Every route template of the REST route table, with its parameters' names: what a fault may name. */
const TEMPLATES = new Map(ROUTES.map((row) => [row.path, row.path.split("/").flatMap((segment) => (segment.startsWith(":") ? [segment.slice(1)] : []))]));

const ZSnowflakeSchema = z.string().regex(/^\d{1,20}$/, "Not a snowflake.");

const ZMethodSchema = z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]);

const ZFaultMatchSchema = z
  .strictObject({
    method: ZMethodSchema.optional(),
    route: z
      .string()
      .refine((template) => TEMPLATES.has(template), {
        message: "Not a route of the REST API: a template as the route table writes it, e.g. /channels/:channelId/messages.",
        params: { code: "BASE_TYPE_CHOICES" },
      })
      .optional(),
    params: z.record(z.string().min(1).max(100), z.string().min(1).max(100)).optional(),
    application_id: ZSnowflakeSchema.optional(),
  })
  .superRefine((match, ctx) => {
    const names = match.route === undefined ? undefined : TEMPLATES.get(match.route);
    if (!names) return;
    for (const name of Object.keys(match.params ?? {})) {
      if (!names.includes(name))
        ctx.addIssue({ code: "custom", path: ["params", name], message: `${match.route} has no parameter :${name}.`, params: { code: "BASE_TYPE_CHOICES" } });
    }
  });

const ZFaultEffectSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("rate_limit"), retry_after: z.number().positive().max(3600), global: z.boolean().default(false) }),
  z.strictObject({ type: z.literal("error"), status: z.literal([500, 502, 503, 504]) }),
  z.strictObject({ type: z.literal("delay"), ms: z.number().min(0).max(60_000) }),
]);

/** POST /__twin/faults: which REST calls a rule catches, what they get instead, how often. */
export const ZFaultRuleInputSchema = z.strictObject({
  match: ZFaultMatchSchema.default({}),
  effect: ZFaultEffectSchema,
  times: z.int().min(1).max(1_000_000).optional(),
  probability: z.number().gt(0).max(1).default(1),
});

export type FaultMatch = z.output<typeof ZFaultMatchSchema>;
export type FaultEffect = z.output<typeof ZFaultEffectSchema>;
export type FaultRuleInput = z.output<typeof ZFaultRuleInputSchema>;

/** The platform's close codes a fault may send (4006 is not in its table) and the protocol's own that a close frame may carry. */
const FAULT_CLOSE_CODES = [...(Object.keys(CLOSE_CODES).map(Number) as CloseCode[]), ...PROTOCOL_CLOSE_CODES];

/** POST /__twin/gateway/faults: what happens at once to the live sessions it reaches. */
export const ZGatewayFaultInputSchema = z.strictObject({
  match: z
    .strictObject({ application_id: ZSnowflakeSchema.optional(), session_id: z.string().min(1).max(64).optional(), shard: z.int().min(0).optional() })
    .default({}),
  action: z.discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("close"),
      code: z.literal(FAULT_CLOSE_CODES),
      // A close frame's reason is at most 123 bytes.
      reason: z
        .string()
        .refine((reason) => Buffer.byteLength(reason) <= 123, { message: "Must be 123 bytes or fewer.", params: { code: "BASE_TYPE_MAX_LENGTH" } })
        .optional(),
    }),
    z.strictObject({ type: z.literal("reconnect") }),
    z.strictObject({ type: z.literal("invalid_session"), resumable: z.boolean() }),
    z.strictObject({ type: z.literal("drop_heartbeat_acks"), count: z.int().min(1).max(1000) }),
  ]),
});
