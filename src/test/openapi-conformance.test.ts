import { describe, expect, it } from "vitest";
import { platformSubset } from "~/server/api-reference/platform-description.ts";
import { createConformance, loadConformance } from "./openapi-conformance.ts";
import type { RestExchange } from "./rest-client.ts";

const conformance = loadConformance();

function exchange(method: string, path: string, status: number, body?: unknown, headers: Record<string, string> = {}): RestExchange {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const responseHeaders = new Headers(headers);
  if (body !== undefined && !responseHeaders.has("content-type"))
    responseHeaders.set("content-type", typeof body === "string" ? "text/plain" : "application/json");
  return { method, url: `http://guildhall.test/api/v10${path}`, status, headers: responseHeaders, text, body: body ?? "" };
}

const everyone = {
  id: "1000",
  name: "@everyone",
  permissions: "1071698660929",
  position: 0,
  color: 0,
  colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
  hoist: false,
  managed: false,
  mentionable: false,
  icon: null,
  unicode_emoji: null,
  flags: 0,
};

// Every field the seed leaves optional (region, widget_*, max_*, premium_subscription_count, stickers) is left out.
const guild = {
  id: "1000",
  name: "Guild",
  icon: null,
  description: null,
  home_header: null,
  splash: null,
  discovery_splash: null,
  features: ["GUILD_TAGS"],
  banner: null,
  owner_id: "2000",
  application_id: null,
  afk_channel_id: null,
  afk_timeout: 300,
  system_channel_id: null,
  system_channel_flags: 0,
  verification_level: 0,
  roles: [everyone],
  default_message_notifications: 0,
  mfa_level: 0,
  explicit_content_filter: 0,
  max_presences: null,
  vanity_url_code: null,
  premium_tier: 0,
  preferred_locale: "en-US",
  rules_channel_id: null,
  safety_alerts_channel_id: null,
  public_updates_channel_id: null,
  premium_progress_bar_enabled: false,
  nsfw: false,
  nsfw_level: 0,
  emojis: [],
  incidents_data: null,
};

const channel = { id: "3000", type: 0, flags: 0, guild_id: "1000", name: "general", position: 0 };

describe("loading the description", () => {
  it("refuses an adjustment kind it does not know instead of skipping it", () => {
    const document = platformSubset();
    expect(() => createConformance(document)).not.toThrow();
    Object.assign(document.seed_overrides[0]!, { rename: { region: "rtc_region" } });
    expect(() => createConformance(document)).toThrow("seed_overrides[0] has keys this checker does not apply: rename");
  });
});

describe("matching a request to an operation", () => {
  it("prefers literal segments over parameters and decodes %40me", () => {
    expect(conformance.matchOperation("PATCH", "/guilds/1/members/@me")).toBe("update_my_guild_member");
    expect(conformance.matchOperation("PATCH", "/guilds/1/members/%40me")).toBe("update_my_guild_member");
    expect(conformance.matchOperation("PATCH", "/guilds/1/members/42")).toBe("update_guild_member");
    expect(conformance.matchOperation("GET", "/guilds/1/widget.json")).toBe("get_guild_widget");
  });

  it("knows the bot surface's operations too, merged from their own description", () => {
    expect(conformance.matchOperation("POST", "/channels/1/typing")).toBe("trigger_typing_indicator");
    expect(conformance.matchOperation("GET", "/users/42")).toBe("get_user");
    expect(conformance.matchOperation("GET", "/users/@me")).toBe("get_my_user");
    expect(conformance.check(exchange("GET", "/users/42", 200, { id: "42", username: "someone" }))).toContain("get_user");
  });

  it("knows the application command registry's operations, the guild's permissions list before a command id", () => {
    expect(conformance.matchOperation("PUT", "/applications/1/commands")).toBe("bulk_set_application_commands");
    expect(conformance.matchOperation("PATCH", "/applications/1/guilds/2/commands/3")).toBe("update_guild_application_command");
    expect(conformance.matchOperation("GET", "/applications/1/guilds/2/commands/permissions")).toBe("list_guild_application_command_permissions");
    expect(conformance.matchOperation("GET", "/applications/1/guilds/2/commands/3")).toBe("get_guild_application_command");
    const command = { id: "3", application_id: "1", version: "4", default_member_permissions: null, type: 1, name: "ping", description: "Pong" };
    // A new command answers 201, one replacing a command of that name and type 200 (an upsert).
    expect(conformance.check(exchange("POST", "/applications/1/commands", 201, command))).toBeNull();
    expect(conformance.check(exchange("POST", "/applications/1/commands", 200, command))).toBeNull();
    const { version: _version, ...withoutVersion } = command;
    expect(conformance.check(exchange("GET", "/applications/1/commands", 200, [withoutVersion]))).toContain("must have required property 'version'");
  });

  it("leaves paths and methods outside the description unchecked", () => {
    expect(conformance.matchOperation("GET", "/guilds/1/audit-logs")).toBeUndefined();
    expect(conformance.check(exchange("GET", "/guilds/1/audit-logs", 200, { nothing: "described" }))).toBeNull();
    expect(conformance.check(exchange("DELETE", "/guilds/1/preview", 200, { nothing: "described" }))).toBeNull();
  });
});

describe("success bodies", () => {
  it("accepts a role object and rejects one with a wrong shape, naming the operation and the instance paths", () => {
    expect(conformance.check(exchange("GET", "/guilds/1000/roles/1000", 200, everyone))).toBeNull();
    const { colors: _colors, ...withoutColors } = everyone;
    const problem = conformance.check(exchange("GET", "/guilds/1000/roles/1000", 200, { ...withoutColors, permissions: 8, id: "01" }));
    expect(problem).toContain("GET /guilds/1000/roles/1000 → 200 (operation get_guild_role)");
    expect(problem).toContain("/ must have required property 'colors'");
    expect(problem).toContain("/permissions must be string (got 8)");
    expect(problem).toContain('/id must match pattern "^(0|[1-9][0-9]*)$"');
  });

  it("validates array bodies item by item", () => {
    expect(conformance.check(exchange("GET", "/guilds/1000/roles", 200, [everyone]))).toBeNull();
    expect(conformance.check(exchange("GET", "/guilds/1000/roles", 200, [everyone, { ...everyone, hoist: "no" }]))).toContain("/1/hoist must be boolean");
  });

  it("applies the seed's field rules: optional and nullable guild fields, added features", () => {
    expect(conformance.check(exchange("PATCH", "/guilds/1000", 200, guild))).toBeNull();
    expect(conformance.check(exchange("PATCH", "/guilds/1000", 200, { ...guild, region: null, widget_enabled: true, widget_channel_id: null }))).toBeNull();
    expect(conformance.check(exchange("PATCH", "/guilds/1000", 200, { ...guild, features: ["NOT_A_FEATURE"] }))).toContain("/features/0");
    const { owner_id: _owner, ...withoutOwner } = guild;
    expect(conformance.check(exchange("PATCH", "/guilds/1000", 200, withoutOwner))).toContain("must have required property 'owner_id'");
  });

  it("applies require and non_nullable overrides", () => {
    const message = {
      id: "1",
      type: 0,
      content: "hi",
      lobby_id: "2",
      channel_id: "2",
      author: { id: "3", username: "u", avatar: null, discriminator: "0", public_flags: 0, flags: 0, global_name: null, primary_guild: null },
      flags: 0,
    };
    expect(conformance.check(exchange("POST", "/lobbies/2/messages", 200, { ...message, application_id: "4", metadata: null }))).toBeNull();
    expect(conformance.check(exchange("POST", "/lobbies/2/messages", 200, message))).toContain("must have required property 'application_id'");
    const job = { status: 3, total_users: 1, processed_users: 1, created_at: "2026-01-01T00:00:00.000Z", completed_at: null, error_message: null };
    expect(conformance.check(exchange("GET", "/invites/abc/target-users/job-status", 200, job))).toContain("/error_message must be string");
    expect(conformance.check(exchange("GET", "/invites/abc/target-users/job-status", 200, { ...job, error_message: "bad line 2" }))).toBeNull();
  });

  it("rejects a malformed timestamp", () => {
    const member = { roles: [], joined_at: "yesterday", deaf: false, mute: false, flags: 0 };
    expect(conformance.check(exchange("GET", "/guilds/1/members/2", 200, member))).toContain('/joined_at must match format "date-time"');
    expect(conformance.check(exchange("GET", "/guilds/1/members/2", 200, { ...member, joined_at: null }))).toBeNull();
  });
});

describe("statuses", () => {
  it("rejects a status the operation does not answer with", () => {
    const problem = conformance.check(exchange("POST", "/guilds/1000/roles", 201, everyone));
    expect(problem).toContain("POST /guilds/1000/roles → 201 (operation create_guild_role): status 201 is not one the operation answers with");
  });

  it("lets the seed's status win: channel creation answers 200, guild creation 201 or 200", () => {
    expect(conformance.check(exchange("POST", "/guilds/1000/channels", 200, channel))).toBeNull();
    expect(conformance.check(exchange("POST", "/guilds/1000/channels", 200, { ...channel, type: 99 }))).toContain("/type");
    expect(conformance.check(exchange("POST", "/guilds/1000/channels", 201, channel))).toContain("status 201 is not one");
    expect(conformance.check(exchange("POST", "/guilds", 201, guild))).toBeNull();
    expect(conformance.check(exchange("POST", "/guilds", 200, guild))).toBeNull();
  });

  it("requires an empty body for 204 and the described content type otherwise", () => {
    expect(conformance.check(exchange("DELETE", "/guilds/1/roles/2", 204))).toBeNull();
    expect(conformance.check(exchange("DELETE", "/guilds/1/roles/2", 204, {}))).toContain("the description has no body for 204");
    expect(conformance.check(exchange("GET", "/guilds/1000/roles/1000", 200, "plain"))).toContain(
      "content-type text/plain, the description says application/json",
    );
    expect(conformance.check(exchange("GET", "/guilds/1000/widget.png", 200, "PNG", { "content-type": "image/png" }))).toBeNull();
  });

  it("accepts 200 as well as 201 where the platform's docs name no status (a new emoji)", () => {
    const emoji = { id: "7", name: "wave", roles: [], require_colons: true, managed: false, animated: false, available: true };
    expect(conformance.check(exchange("POST", "/guilds/1/emojis", 201, emoji))).toBeNull();
    expect(conformance.check(exchange("POST", "/guilds/1/emojis", 200, emoji))).toBeNull();
  });

  it("expects the seed's 200 with a JSON body where the description had an empty 204", () => {
    expect(conformance.check(exchange("POST", "/webhooks/1/token/github", 200, { id: "1" }))).toBeNull();
    expect(conformance.check(exchange("POST", "/webhooks/1/token/github", 200, "ok"))).toContain("the description says application/json");
  });
});

describe("error bodies", () => {
  it("accepts the error envelope with string field codes and rejects one without a message", () => {
    const invalid = {
      code: 50035,
      message: "Invalid Form Body",
      errors: { name: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 2 and 100 in length." }] } },
    };
    expect(conformance.check(exchange("PATCH", "/guilds/1000", 400, invalid))).toBeNull();
    expect(conformance.check(exchange("PATCH", "/guilds/1000", 404, { code: 10004, message: "Unknown Guild" }))).toBeNull();
    const problem = conformance.check(exchange("PATCH", "/guilds/1000", 404, { code: 10004 }));
    expect(problem).toContain("PATCH /guilds/1000 → 404 (operation update_guild): error body does not match the 4XX envelope");
    expect(problem).toContain("must have required property 'message'");
    expect(conformance.check(exchange("PATCH", "/guilds/1000", 400, { ...invalid, errors: { name: { _errors: [{ code: "X" }] } } }))).toContain("/errors");
  });

  it("accepts the documented rate-limit body without a code and checks the rate-limit headers", () => {
    const limited = { message: "You are being rate limited.", retry_after: 1.5, global: false };
    expect(conformance.check(exchange("GET", "/guilds/1000", 429, limited, { "x-ratelimit-remaining": "0", "x-ratelimit-reset-after": "1.500" }))).toBeNull();
    expect(conformance.check(exchange("GET", "/guilds/1000", 429, { message: "slow down" }))).toContain("must have required property 'retry_after'");
    expect(conformance.check(exchange("GET", "/guilds/1000", 429, limited, { "x-ratelimit-remaining": "0.5" }))).toContain("header X-RateLimit-Remaining");
  });

  it("rejects a server error on a described operation", () => {
    expect(conformance.check(exchange("GET", "/guilds/1000", 500, { code: 0, message: "Internal Server Error" }))).toContain("status 500 is not one");
  });
});
