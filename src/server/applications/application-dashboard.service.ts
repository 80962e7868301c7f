// The dashboard's Applications area: a signed-in user manages the applications they own.
// Someone else's application reads as unknown, as it would to anyone who cannot see it.
import type { ServiceContext } from "~/server/context.ts";
import { resetBotToken } from "~/server/auth/tokens.service.ts";
import { ApiError } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { publicUrl } from "~/env.ts";
import { REDIRECT_URIS_MAX, redirectUrisOf } from "~/server/oauth2/client-settings.ts";
import { applicationKeys } from "./application-keys.ts";
import type { PrivilegedIntent, TApplicationCreateBody, TApplicationEditBody, TApplicationIntentInput } from "./application.schema.ts";
import { createApplication, editApplication } from "./application.service.ts";
import { applicationReach, describeIntents, INTENT_REVIEW_THRESHOLD, type IntentState } from "./intents.ts";

const SUMMARY_SELECT = { id: true, name: true, description: true, icon: true, createdAt: true, rateLimitsLifted: true } as const;

/** An application in the user's list. */
export type ApplicationSummary = {
  id: string;
  name: string;
  description: string;
  icon: string | null;
  createdAt: string;
  /** An operator lifted the development rate limits (spec 8). */
  rateLimitsLifted: boolean;
};

/** The application's OAuth2 client as its owner sees it: never the secret, only whether there is one. */
type ApplicationOAuth2 = {
  hasClientSecret: boolean;
  redirectUris: string[];
  /** How many redirect URIs may be registered. */
  redirectUrisMax: number;
  publicClient: boolean;
  /** An operator's grant: partner-only scopes (identify.premium) may be asked for. */
  partner: boolean;
  /** Where install links point: `{PUBLIC_BASE_URL}/oauth2/authorize`. */
  authorizeUrl: string;
};

/** One application's page: its settings, its bot, its OAuth2 client, and its intents with the bot's reach. */
export type ApplicationDetail = ApplicationSummary & {
  bot: { id: string; username: string; guildCount: number; isPublic: boolean; requireCodeGrant: boolean };
  oauth2: ApplicationOAuth2;
  /** The Ed25519 public key (hex) that checks the application's signed event webhooks. */
  verifyKey: string;
  intents: Record<PrivilegedIntent, IntentState>;
  /** Distinct users across the bot's guilds. */
  reach: number;
  reviewThreshold: number;
  /** Gateway sessions started from now on receive channels the bot cannot view, obfuscated (spec 6's testing opt-in). */
  channelObfuscation: boolean;
};

function toSummary(row: {
  id: string;
  name: string;
  description: string;
  icon: string | null;
  createdAt: Date;
  rateLimitsLifted: boolean;
}): ApplicationSummary {
  // Field by field: the row may hold columns (the client secret's digest) no page should see.
  const { id, name, description, icon, rateLimitsLifted } = row;
  return { id, name, description, icon, rateLimitsLifted, createdAt: row.createdAt.toISOString() };
}

/**
 * The application if the signed-in user owns it; UNKNOWN_APPLICATION otherwise, whether or
 * not it exists. Every dashboard page of an application (its settings, its lobbies) checks this.
 */
export async function ownedApplication(ctx: ServiceContext, applicationId: string) {
  const app = await ctx.db.application.findUnique({
    where: { id: applicationId },
    select: {
      ...SUMMARY_SELECT,
      ownerId: true,
      flags: true,
      channelObfuscation: true,
      clientSecretHash: true,
      redirectUris: true,
      publicClient: true,
      botPublic: true,
      botRequireCodeGrant: true,
      partner: true,
      botUser: { select: { id: true, username: true } },
    },
  });
  if (app?.ownerId !== ctx.actor.userId) throw new ApiError("UNKNOWN_APPLICATION");
  return app;
}

/** The caller's applications, newest first. */
export async function listOwnApplications(ctx: ServiceContext): Promise<ApplicationSummary[]> {
  const rows = await ctx.db.application.findMany({
    where: { ownerId: ctx.actor.userId },
    select: SUMMARY_SELECT,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toSummary);
}

export async function getOwnApplication(ctx: ServiceContext, input: { applicationId: string }): Promise<ApplicationDetail> {
  const app = await ownedApplication(ctx, input.applicationId);
  const [reach, guildCount, keys] = await Promise.all([
    applicationReach(ctx.db, app.botUser.id),
    ctx.db.member.count({ where: { userId: app.botUser.id } }),
    applicationKeys(ctx.db, app.id),
  ]);
  return {
    ...toSummary(app),
    channelObfuscation: app.channelObfuscation,
    bot: { ...app.botUser, guildCount, isPublic: app.botPublic, requireCodeGrant: app.botRequireCodeGrant },
    oauth2: {
      hasClientSecret: app.clientSecretHash !== null,
      redirectUris: redirectUrisOf(app),
      redirectUrisMax: REDIRECT_URIS_MAX,
      publicClient: app.publicClient,
      partner: app.partner,
      authorizeUrl: publicUrl("/oauth2/authorize"),
    },
    verifyKey: keys.verifyKey,
    intents: describeIntents(app.flags, reach),
    reach,
    reviewThreshold: INTENT_REVIEW_THRESHOLD,
  };
}

/** A new application owned by the caller, with its bot user and first bot token (shown once). */
export async function createOwnApplication(ctx: ServiceContext, body: TApplicationCreateBody): Promise<{ application: ApplicationSummary; botToken: string }> {
  const { application, botToken } = await runChange(ctx, ({ tx }) =>
    createApplication(tx, { name: body.name, description: body.description, ownerId: ctx.actor.userId }),
  );
  return { application: toSummary(application), botToken };
}

/** Name, description, icon and the channel obfuscation opt-in, through the same edit as PATCH /applications/@me. */
export async function editOwnApplication(ctx: ServiceContext, input: { applicationId: string; body: TApplicationEditBody }): Promise<ApplicationDetail> {
  await ownedApplication(ctx, input.applicationId);
  await editApplication(ctx, input.applicationId, input.body);
  return getOwnApplication(ctx, input);
}

/** A new bot token; every earlier one stops working on every instance at once. */
export async function resetOwnBotToken(ctx: ServiceContext, input: { applicationId: string }): Promise<{ botToken: string }> {
  const app = await ownedApplication(ctx, input.applicationId);
  return { botToken: await resetBotToken(ctx, { id: app.id, botUserId: app.botUser.id }) };
}

/** Switches one intent's limited form, by the rule PATCH /applications/@me `flags` follows. */
export async function setOwnApplicationIntent(ctx: ServiceContext, input: TApplicationIntentInput): Promise<ApplicationDetail> {
  await ownedApplication(ctx, input.applicationId);
  await editApplication(ctx, input.applicationId, { intents: { intent: input.intent, enabled: input.enabled } });
  return getOwnApplication(ctx, input);
}
