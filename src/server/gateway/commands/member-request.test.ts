import { GatewayIntentBits as I } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { isWholeGuild, memberRequestDenial, nonceOf, selectionOf, ZRequestGuildMembersSchema } from "./member-request.ts";

const parse = (d: unknown) => ZRequestGuildMembersSchema.parse(d);

describe("what a request for guild members names", () => {
  it("reads user ids first, one or many, at most 100 distinct", () => {
    expect(selectionOf(parse({ guild_id: "1", user_ids: "5", query: "", limit: 0 }))).toEqual({ kind: "ids", userIds: ["5"] });
    const many = Array.from({ length: 150 }, (_, i) => String(1000 + i));
    expect(selectionOf(parse({ guild_id: "1", user_ids: ["7", "7", ...many] }))).toEqual({ kind: "ids", userIds: ["7", ...many.slice(0, 99)] });
  });

  it("reads an empty query as every member (limit 0) or the first `limit`, and caps a prefix at 100", () => {
    expect(selectionOf(parse({ guild_id: "1", query: "", limit: 0 }))).toEqual({ kind: "all", limit: 0 });
    expect(selectionOf(parse({ guild_id: "1", query: "", limit: 2500 }))).toEqual({ kind: "all", limit: 2500 });
    expect(selectionOf(parse({ guild_id: "1", query: "ab", limit: 0 }))).toEqual({ kind: "prefix", prefix: "ab", limit: 100 });
    expect(selectionOf(parse({ guild_id: "1", query: "ab", limit: 500 }))).toEqual({ kind: "prefix", prefix: "ab", limit: 100 });
    expect(selectionOf(parse({ guild_id: "1", query: "ab", limit: 7 }))).toEqual({ kind: "prefix", prefix: "ab", limit: 7 });
  });

  it("refuses a request without query and limit or user ids, and a guild list", () => {
    expect(ZRequestGuildMembersSchema.safeParse({ guild_id: "1", query: "a" }).success).toBe(false);
    expect(ZRequestGuildMembersSchema.safeParse({ guild_id: "1" }).success).toBe(false);
    expect(ZRequestGuildMembersSchema.safeParse({ guild_id: ["1"], user_ids: "2" }).success).toBe(false);
  });
});

describe("who may ask", () => {
  it("needs GUILD_MEMBERS to list members without a query, and no intent for names or ids", () => {
    expect(memberRequestDenial(I.Guilds, { kind: "all", limit: 0 })).toMatch(/GUILD_MEMBERS/);
    expect(memberRequestDenial(I.Guilds, { kind: "all", limit: 5 })).toMatch(/GUILD_MEMBERS/);
    expect(memberRequestDenial(I.Guilds | I.GuildMembers, { kind: "all", limit: 0 })).toBeNull();
    expect(memberRequestDenial(0, { kind: "prefix", prefix: "a", limit: 1 })).toBeNull();
    expect(memberRequestDenial(0, { kind: "ids", userIds: ["1"] })).toBeNull();
  });

  it("rate limits a listing that answers every member or more than 100, never names or ids", () => {
    expect(isWholeGuild({ kind: "all", limit: 0 }, 5000)).toBe(true);
    expect(isWholeGuild({ kind: "all", limit: 1_000_000 }, 5000)).toBe(true);
    expect(isWholeGuild({ kind: "all", limit: 101 }, 5000)).toBe(true);
    expect(isWholeGuild({ kind: "all", limit: 100 }, 5000)).toBe(false);
    expect(isWholeGuild({ kind: "all", limit: 1 }, 5000)).toBe(false);
    expect(isWholeGuild({ kind: "all", limit: 7 }, 7)).toBe(true);
    expect(isWholeGuild({ kind: "all", limit: 6 }, 7)).toBe(false);
    expect(isWholeGuild({ kind: "prefix", prefix: "a", limit: 100 }, 1)).toBe(false);
    expect(isWholeGuild({ kind: "ids", userIds: ["1"] }, 1)).toBe(false);
  });

  it("echoes a nonce of up to 32 bytes, counted in UTF-8", () => {
    expect(nonceOf("n".repeat(32))).toBe("n".repeat(32));
    expect(nonceOf("n".repeat(33))).toBeUndefined();
    expect(nonceOf("é".repeat(16))).toBe("é".repeat(16));
    expect(nonceOf("é".repeat(17))).toBeUndefined();
    expect(nonceOf(null)).toBeUndefined();
  });
});
