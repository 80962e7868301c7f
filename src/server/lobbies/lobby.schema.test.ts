import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { fromZodError } from "~/server/errors.ts";
import {
  LOBBY_METADATA_MAX_TOTAL,
  metadataLength,
  ZLobbyBulkMembersBodySchema,
  ZLobbyCreateBodySchema,
  ZLobbyJoinBodySchema,
  ZLobbyMessagesQuerySchema,
  ZModerationMetadataBodySchema,
} from "./lobby.schema.ts";

/** The field error code the platform answers at `path` (dot-separated) when `body` fails `schema`. */
function errorAt(schema: z.ZodType, body: unknown, path: string): string | undefined {
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  let node = fromZodError(result.error, body).errors as Record<string, unknown> | undefined;
  for (const key of path.split(".")) node = node?.[key] as Record<string, unknown> | undefined;
  return (node?._errors as { code: string }[] | undefined)?.[0]?.code;
}

const member = (i: number) => ({ id: String(1_000_000_000_000_000 + i) });

describe("lobby request bodies (spec 4.7, limits of spec 8)", () => {
  it("counts metadata by keys and values together, up to 1000 characters", () => {
    expect(metadataLength({ map: "dust2", mode: "ranked" })).toBe(18);
    const full = { k: "v".repeat(LOBBY_METADATA_MAX_TOTAL - 1) };
    expect(ZLobbyCreateBodySchema.parse({ metadata: full }).metadata).toEqual(full);
    expect(errorAt(ZLobbyCreateBodySchema, { metadata: { k: "v".repeat(LOBBY_METADATA_MAX_TOTAL) } }, "metadata")).toBe("BASE_TYPE_MAX_LENGTH");
    expect(errorAt(ZLobbyCreateBodySchema, { metadata: { level: 3 } }, "metadata.level")).toBeDefined();
    expect(ZLobbyCreateBodySchema.parse({ metadata: null }).metadata).toBeNull();
  });

  it("takes at most 25 members a request, each with only the CanLinkLobby flag", () => {
    const members = Array.from({ length: 25 }, (_, i) => member(i));
    expect(ZLobbyCreateBodySchema.parse({ members }).members).toHaveLength(25);
    expect(errorAt(ZLobbyCreateBodySchema, { members: [...members, member(25)] }, "members")).toBe("BASE_TYPE_MAX_LENGTH");
    expect(ZLobbyCreateBodySchema.parse({ members: [{ ...member(0), flags: 1 }] }).members![0]!.flags).toBe(1);
    expect(errorAt(ZLobbyCreateBodySchema, { members: [{ ...member(0), flags: 2 }] }, "members.0.flags")).toBe("BASE_TYPE_CHOICES");
    expect(errorAt(ZLobbyCreateBodySchema, { members: [{ id: "not-an-id" }] }, "members.0.id")).toBeDefined();
  });

  it("keeps idle_timeout_seconds between 5 seconds and 7 days", () => {
    expect(ZLobbyCreateBodySchema.parse({ idle_timeout_seconds: 5 }).idle_timeout_seconds).toBe(5);
    expect(ZLobbyCreateBodySchema.parse({ idle_timeout_seconds: 604_800 }).idle_timeout_seconds).toBe(604_800);
    expect(errorAt(ZLobbyCreateBodySchema, { idle_timeout_seconds: 4 }, "idle_timeout_seconds")).toBeDefined();
    expect(errorAt(ZLobbyCreateBodySchema, { idle_timeout_seconds: 604_801 }, "idle_timeout_seconds")).toBeDefined();
  });

  it("needs a secret of at most 250 characters to create or join by secret", () => {
    expect(errorAt(ZLobbyJoinBodySchema, {}, "secret")).toBe("BASE_TYPE_REQUIRED");
    expect(ZLobbyJoinBodySchema.parse({ secret: "s".repeat(250) }).secret).toHaveLength(250);
    expect(errorAt(ZLobbyJoinBodySchema, { secret: "s".repeat(251) }, "secret")).toBeDefined();
  });

  it("bulk-updates 1 to 25 members, each possibly removed", () => {
    expect(ZLobbyBulkMembersBodySchema.safeParse([]).success).toBe(false);
    expect(ZLobbyBulkMembersBodySchema.parse([{ ...member(1), remove_member: true }])[0]!.remove_member).toBe(true);
    expect(ZLobbyBulkMembersBodySchema.safeParse(Array.from({ length: 26 }, (_, i) => member(i))).success).toBe(false);
  });

  it("reads the messages limit from the query string, 1 to 200", () => {
    expect(ZLobbyMessagesQuerySchema.parse({ limit: "200" }).limit).toBe(200);
    expect(ZLobbyMessagesQuerySchema.parse({}).limit).toBeUndefined();
    expect(ZLobbyMessagesQuerySchema.safeParse({ limit: "0" }).success).toBe(false);
    expect(ZLobbyMessagesQuerySchema.safeParse({ limit: "201" }).success).toBe(false);
  });

  it("takes moderation metadata of at most 5 keys, keys up to 1024 and values up to 2000 characters", () => {
    const five = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, "v"]));
    expect(ZModerationMetadataBodySchema.parse(five)).toEqual(five);
    expect(ZModerationMetadataBodySchema.safeParse({ ...five, k5: "v" }).success).toBe(false);
    expect(ZModerationMetadataBodySchema.safeParse({ ["k".repeat(1025)]: "v" }).success).toBe(false);
    expect(ZModerationMetadataBodySchema.parse({ verdict: "v".repeat(2000) }).verdict).toHaveLength(2000);
    expect(ZModerationMetadataBodySchema.safeParse({ verdict: "v".repeat(2001) }).success).toBe(false);
  });
});
