import { InternalEvents } from "~/server/events/event-map.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { runChange, type ChangeContext } from "~/server/events/change.ts";
import { decodeImageField, imageHash } from "~/server/images/image-data.ts";
import { imageFolder, replaceImage } from "~/server/images/image.service.ts";

import { ApiError } from "~/server/errors.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import type { Tx } from "~/server/db/client.ts";
import { hashPassword } from "~/server/auth/password.ts";
import { createBearerToken, createBotToken } from "~/server/auth/tokens.service.ts";
import type { OAuth2Scope } from "~/server/auth/actor.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { eventWebhookSettingsOf, prepareEventWebhookSettings } from "~/server/event-webhooks/event-webhook-settings.ts";
import type { TEventWebhookSettingsBody } from "~/server/event-webhooks/event-webhook.schema.ts";
import { toApplicationBase } from "./application.dto.ts";
import { applicationKeys, newApplicationKeys } from "./application-keys.ts";
import { ownIntentChange, writeOwnIntentChange, type OwnIntentRequest } from "./intents.ts";

type NewUser = { username: string; globalName?: string | null; email?: string | null };

/**
 * Creates a platform user in the caller's change; with a password hash (newUserWithPassword)
 * the user can sign in to the dashboard.
 */
export async function createUser(tx: Tx, input: NewUser & { passwordHash?: string | null }) {
  return tx.user.create({
    data: {
      id: newId(),
      username: input.username,
      globalName: input.globalName ?? null,
      email: input.email?.toLowerCase() ?? null,
      passwordHash: input.passwordHash ?? null,
    },
  });
}

/** A new user's fields with the password hashed, before the change: hashing takes tens of milliseconds, which a change would hold every write for. */
export async function newUserWithPassword(input: NewUser & { password?: string | null }): Promise<NewUser & { passwordHash: string | null }> {
  const { password, ...user } = input;
  return { ...user, passwordHash: password ? await hashPassword(password) : null };
}

/** Creates an application with its bot user (one id for both) in the caller's change, and returns a first bot token (shown once). */
export async function createApplication(tx: Tx, input: { name: string; description?: string; ownerId: string; maxConcurrency?: number }) {
  // The bot user and its application share one id, as on the platform: client libraries use the
  // bot's user id where the platform expects the application's (discord.js's application commands).
  const id = newId();
  const botUser = await tx.user.create({
    data: {
      id,
      username:
        input.name
          .toLowerCase()
          .replace(/[^a-z0-9_.]/g, "_")
          .slice(0, 32) || "bot",
      bot: true,
    },
  });
  const application = await tx.application.create({
    data: {
      id,
      name: input.name,
      description: input.description ?? "",
      ownerId: input.ownerId,
      botUserId: botUser.id,
      maxConcurrency: input.maxConcurrency ?? 1,
      ...newApplicationKeys(),
    },
  });
  const botToken = await createBotToken(tx, application);
  return { application, botUser, botToken };
}

/** Issues an OAuth2 bearer token for a user, optionally on behalf of an application, in a change of its own (the operator's). */
export async function issueBearerToken(ctx: ChangeContext, input: { userId: string; applicationId?: string | null; scopes: readonly OAuth2Scope[] }) {
  const user = await ctx.db.user.findUnique({ where: { id: input.userId }, select: { id: true } });
  if (!user) throw new Error(`Unknown user ${input.userId}`);
  return runChange(ctx, ({ tx }) => createBearerToken(tx, { userId: input.userId, applicationId: input.applicationId ?? null, scopes: input.scopes }));
}

/** GET /applications/@me: the bot's own application. */
export async function getCurrentApplication(ctx: ServiceContext) {
  const app = ctx.actor.applicationId
    ? await ctx.db.application.findUnique({ where: { id: ctx.actor.applicationId }, include: { botUser: true, owner: true } })
    : null;
  if (!app) throw new ApiError("UNKNOWN_APPLICATION");
  const guildCount = await ctx.db.member.count({ where: { userId: app.botUserId } });
  const { verifyKey } = await applicationKeys(ctx.db, app.id);
  return {
    ...toApplicationBase(app, verifyKey),
    bot: toUserObject(app.botUser),
    owner: toUserObject(app.owner),
    approximate_guild_count: guildCount,
    ...eventWebhookSettingsOf(app),
  };
}

/** PATCH /applications/@me: the bot's own application, edited by the same rules as the dashboard's. */
export async function editCurrentApplication(
  ctx: ServiceContext,
  body: { flags?: number; description?: string; icon?: string | null } & TEventWebhookSettingsBody,
) {
  if (!ctx.actor.applicationId) throw new ApiError("UNKNOWN_APPLICATION");
  const { flags, description, icon, event_webhooks_url, event_webhooks_status, event_webhooks_types } = body;
  // Verified (a PING) before anything is written, so a refused URL leaves the whole edit undone.
  const eventWebhooks = await prepareEventWebhookSettings(ctx.db, ctx.actor.applicationId, { event_webhooks_url, event_webhooks_status, event_webhooks_types });
  await editApplication(ctx, ctx.actor.applicationId, { description, icon, intents: flags === undefined ? undefined : { flags }, eventWebhooks });
  return getCurrentApplication(ctx);
}

/**
 * What may change of an application: the owner's settings from the dashboard (with the channel
 * obfuscation opt-in, spec 6, and the OAuth2 switches), `description`, `icon` and the limited
 * intents from PATCH /applications/@me, and the event webhook columns prepareEventWebhookSettings checked.
 */
export type ApplicationEdit = {
  name?: string;
  description?: string;
  icon?: string | null;
  intents?: OwnIntentRequest;
  channelObfuscation?: boolean;
  /** No client secret; the code grant then requires PKCE. */
  publicClient?: boolean;
  /** Anyone who manages a guild may add the bot; off, only the owner. */
  botPublic?: boolean;
  /** Adding the bot goes through the full code grant, back to a redirect URI. */
  botRequireCodeGrant?: boolean;
  eventWebhooks?: Prisma.ApplicationUpdateInput | null;
};

const SWITCHES = ["channelObfuscation", "publicClient", "botPublic", "botRequireCodeGrant"] as const;

/**
 * Edits an application in one change: the icon is stored under `/cdn/app-icons/{id}/{hash}`,
 * intents follow their rule (intents.ts), and APPLICATION_UPDATED drops it from every cache.
 * Whether the caller may edit it is the caller's to check.
 */
export async function editApplication(ctx: ChangeContext, applicationId: string, edit: ApplicationEdit): Promise<void> {
  const app = await ctx.db.application.findUnique({ where: { id: applicationId }, select: { flags: true, botUserId: true, icon: true } });
  if (!app) throw new ApiError("UNKNOWN_APPLICATION");
  const icon = typeof edit.icon === "string" ? decodeImageField("icon", edit.icon) : edit.icon;
  const intents = edit.intents ? await ownIntentChange(ctx.db, app, edit.intents) : null;
  const switches = SWITCHES.filter((key) => edit[key] !== undefined);
  if (edit.name === undefined && edit.description === undefined && icon === undefined && switches.length === 0 && !intents && !edit.eventWebhooks) return;
  await runChange(ctx, async (change) => {
    const { tx, emit } = change;
    const data: Prisma.ApplicationUpdateInput = { ...edit.eventWebhooks };
    if (edit.name !== undefined) data.name = edit.name;
    if (edit.description !== undefined) data.description = edit.description;
    for (const key of switches) data[key] = edit[key];
    if (icon !== undefined) data.icon = icon && imageHash(icon);
    if (Object.keys(data).length > 0) await tx.application.update({ where: { id: applicationId }, data });
    if (icon !== undefined) await replaceImage(change, imageFolder("app-icons", applicationId), app.icon, icon);
    if (intents) await writeOwnIntentChange(tx, applicationId, intents);
    await emit(InternalEvents.ApplicationUpdated, { application_id: applicationId });
  });
}
