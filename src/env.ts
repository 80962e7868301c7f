import { z } from "zod";

/** Server configuration from the environment (and `.env`), validated once. */
const ZEnvSchema = z.object({
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  /** Multiplies every rate-limit bucket (benchmarks and test rigs raise it). */
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  /** Proxies whose X-Forwarded-For names the client: comma-separated addresses and CIDR ranges (client-address.ts). */
  TRUSTED_PROXIES: z.string().default(""),
  /** Where event webhooks may go besides public addresses: comma-separated host names, addresses and CIDR ranges (event-webhook-address-rules.ts). */
  EVENT_WEBHOOK_ALLOWED_HOSTS: z.string().default(""),
  /** Request bodies held in memory at once, in MiB (default: upload-memory.ts): uploads past it are refused (429) until others finish. */
  UPLOAD_MEMORY_MIB: z.coerce.number().positive().optional(),
  /** At most this many guilds' state (roles, channels, members' access) are cached per process. */
  GUILD_CACHE_MAX: z.coerce.number().int().positive().default(1000),
  /** At most this many authenticated tokens are cached per process. */
  TOKEN_CACHE_MAX: z.coerce.number().int().positive().default(10_000),
  /** Stored events (the outbox) are kept this many days for resume and replay, then deleted. */
  EVENT_RETENTION_DAYS: z.coerce.number().positive().default(7),
  /** The gateway's HELLO heartbeat_interval (the platform's 41250 ms); tests and operators lower it. */
  GATEWAY_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).default(41_250),
  /** Gateway sessions each application may start (IDENTIFY) per 24 hours: session_start_limit.total. */
  GATEWAY_SESSION_START_LIMIT: z.coerce.number().int().nonnegative().default(1000),
  /** IDENTIFYs per 5 seconds (max_concurrency) for every application; an application's own higher value is kept. */
  GATEWAY_MAX_CONCURRENCY: z.coerce.number().int().positive().default(1),
  /**
   * How long a gateway connection may stay without IDENTIFY or RESUME before it is closed (4003).
   * Generous: client libraries open every shard's connection at once and identify them 5 s apart.
   */
  GATEWAY_IDENTIFY_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** Gateway connections one client address may hold open without a session; past it a new one is closed (4008). */
  GATEWAY_UNIDENTIFIED_PER_ADDRESS: z.coerce.number().int().positive().default(50),
  /** Public address of this service, used in links it hands out. */
  PUBLIC_BASE_URL: z.string().url().default("http://127.0.0.1:3000"),
  /** Test mode (the test twin, README "Testing your bot against Guildhall"): the /api/v10/__twin namespace, the clock, faults, call recording and the Inspector. Off unless "1". */
  GUILDHALL_TEST_MODE: z
    .enum(["0", "1", ""])
    .default("0")
    .transform((value) => value === "1"),
  /** The test twin's admin token (`Authorization: Twin <token>`); in test mode without it, a random one is made and printed. */
  GUILDHALL_TWIN_TOKEN: z.string().min(16).optional(),
  /** "1": the twin namespace answers callers beyond loopback too (a twin in a container); by default loopback only. */
  GUILDHALL_TWIN_REMOTE: z
    .enum(["0", "1", ""])
    .default("0")
    .transform((value) => value === "1"),
  NEXTAUTH_SECRET: z.string().optional(),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_NAME: z.string().default("Single sign-on"),
});

export type Env = z.output<typeof ZEnvSchema>;

let cached: Env | undefined;
export function env(): Env {
  cached ??= ZEnvSchema.parse(process.env);
  return cached;
}

/** The next env() reads process.env again: for a process that runs CLI commands under an environment of their own (the CLI's tests). */
export function forgetEnv(): void {
  cached = undefined;
}

/** An absolute address on this service, for links it hands out (`path` starts with a slash). */
export function publicUrl(path: string): string {
  return `${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}${path}`;
}
