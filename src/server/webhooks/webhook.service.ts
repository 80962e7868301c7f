import { randomBytes, timingSafeEqual } from "node:crypto";
import { AuditLogEvent, PermissionFlagsBits as P, WebhookType } from "discord-api-types/v10";
import type { Webhook } from "~/generated/prisma/client.ts";
import { diffChanges } from "~/server/audit/audit.service.ts";
import { loadChannelAccess, type ChannelAccess } from "~/server/channels/channel-read.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange, type Change, type ChangeContext } from "~/server/events/change.ts";
import { decodeImageField, imageHash, type ImageData } from "~/server/images/image-data.ts";
import { imageFolder, replaceImage, storeImage } from "~/server/images/image.service.ts";
import { loadGuildAccess, requirePermissions } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { stateCache } from "~/server/state/state-cache.ts";
import { loadWebhookRefs, toWebhookObject, type WebhookObject } from "./webhook.dto.ts";
import { announceWebhooksUpdate, deleteWebhookRows, isAvatarPostedUnder } from "./webhook-removal.ts";
import {
  CHANNEL_WEBHOOKS_MAX,
  GUILD_WEBHOOKS_MAX,
  WEBHOOK_CHANNEL_TYPES,
  type TWebhookCreateBody,
  type TWebhookModifyBody,
  type TWebhookTokenModifyBody,
} from "./webhook.schema.ts";

/** What the audit log records of a webhook, under the platform's change keys. */
const AUDIT_KEYS = ["name", "type", "channel_id", "avatar_hash", "application_id"] as const;
function auditRecord(row: Webhook): Record<string, unknown> {
  return { name: row.name, type: row.type, channel_id: row.channelId, avatar_hash: row.avatar, application_id: row.applicationId };
}

/** A webhook token: 51 random bytes, 68 URL-safe characters like the platform's. */
export function newWebhookToken(): string {
  return randomBytes(51).toString("base64url");
}

function isSameToken(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Path ids that can name a webhook; anything else is unknown without a read. */
const WEBHOOK_ID = /^\d{1,20}$/;

async function findWebhook(db: Db, webhookId: string): Promise<Webhook> {
  const row = WEBHOOK_ID.test(webhookId) ? await db.webhook.findUnique({ where: { id: webhookId } }) : null;
  if (!row) throw new ApiError("UNKNOWN_WEBHOOK");
  return row;
}

/**
 * The webhook named by the path's id and token: 10015 for an unknown id, 401/50027 for a
 * wrong token. Read from its guild's cached state: services post through tokens far more
 * often than webhooks change, and every change to one is an event for its guild.
 */
export async function findWebhookByToken(db: Db, input: { webhookId: string; token: string }): Promise<Webhook> {
  const row = WEBHOOK_ID.test(input.webhookId) ? await stateCache(db).webhook(input.webhookId) : null;
  if (!row) throw new ApiError("UNKNOWN_WEBHOOK");
  if (!row.token || !isSameToken(row.token, input.token)) throw new ApiError("INVALID_WEBHOOK_TOKEN");
  return row;
}

/** A channel the caller can see and holds MANAGE_WEBHOOKS in. */
export async function requireManageIn(ctx: ServiceContext, channelId: string): Promise<ChannelAccess> {
  const found = await loadChannelAccess(ctx, channelId);
  if (!hasPermission(found.permissions, P.ManageWebhooks)) throw new ApiError("MISSING_PERMISSIONS");
  return found;
}

/** The application a bot caller acts for: webhooks it makes are its application's. */
function callerApplicationId(ctx: ServiceContext): string | null {
  return ctx.actor.kind === "bot" ? ctx.actor.applicationId : null;
}

/** A webhook the caller manages: its application owns it, or MANAGE_WEBHOOKS in its channel. */
export async function loadManagedWebhook(ctx: ServiceContext, webhookId: string): Promise<Webhook> {
  const row = await findWebhook(ctx.db, webhookId);
  const isOwner = row.applicationId !== null && row.applicationId === callerApplicationId(ctx);
  if (!isOwner) {
    if (!row.channelId) throw new ApiError("MISSING_PERMISSIONS");
    await requireManageIn(ctx, row.channelId);
  }
  return row;
}

async function present(db: Db, rows: readonly Webhook[], options: { withCreator: boolean }): Promise<WebhookObject[]> {
  const refs = await loadWebhookRefs(db, rows);
  return rows.map((row) => toWebhookObject(row, { creator: options.withCreator ? refs.creatorOf(row) : null, withToken: true, source: refs.sourceOf(row) }));
}

async function presentOne(db: Db, row: Webhook, options: { withCreator: boolean }): Promise<WebhookObject> {
  return (await present(db, [row], options))[0]!;
}

/**
 * POST /channels/{channel.id}/webhooks (spec 4.8): MANAGE_WEBHOOKS in the channel; an incoming
 * webhook with a new token, the caller as creator and, for bots, their application. Webhooks
 * Update; audit WEBHOOK_CREATE.
 */
export async function createWebhook(ctx: ServiceContext, input: { channelId: string; body: TWebhookCreateBody }): Promise<WebhookObject> {
  const { access, channel } = await requireManageIn(ctx, input.channelId);
  if (!WEBHOOK_CHANNEL_TYPES.has(channel.type)) throw new ApiError("WRONG_CHANNEL_TYPE");
  const image = input.body.avatar ? decodeImageField("avatar", input.body.avatar) : null;
  const row = await runChange(ctx, (change) =>
    insertWebhook(ctx, change, {
      type: WebhookType.Incoming,
      guildId: access.guild.id,
      channelId: channel.id,
      name: input.body.name,
      avatar: image,
      token: newWebhookToken(),
    }),
  );
  return presentOne(ctx.db, row, { withCreator: true });
}

export type NewWebhook = {
  type: WebhookType;
  guildId: string;
  channelId: string;
  name: string;
  avatar: ImageData | null;
  token: string | null;
  source?: { guildId: string; channelId: string };
  /** The application the webhook belongs to when not the calling bot's: one a user added through OAuth2 (webhook.incoming). */
  applicationId?: string;
};

/**
 * Adds a webhook of any type, made by the caller, in the caller's change: the platform's
 * limits (15 per channel: 30007; 1000 per guild: 30058), Webhooks Update, audit WEBHOOK_CREATE.
 * Incoming and channel follower webhooks are both made here so the limits hold for both.
 */
export async function insertWebhook(ctx: ServiceContext, change: Change, data: NewWebhook): Promise<Webhook> {
  const { tx, audit } = change;
  const { guildId, channelId } = data;
  if ((await tx.webhook.count({ where: { channelId } })) >= CHANNEL_WEBHOOKS_MAX) throw new ApiError("MAX_WEBHOOKS");
  if ((await tx.webhook.count({ where: { guildId } })) >= GUILD_WEBHOOKS_MAX) throw new ApiError("MAX_GUILD_WEBHOOKS");
  const id = newId();
  const created = await tx.webhook.create({
    data: {
      id,
      type: data.type,
      guildId,
      channelId,
      userId: ctx.actor.userId,
      name: data.name,
      avatar: data.avatar ? await storeImage(tx, "avatars", id, data.avatar) : null,
      token: data.token,
      applicationId: data.applicationId ?? callerApplicationId(ctx),
      sourceGuildId: data.source?.guildId ?? null,
      sourceChannelId: data.source?.channelId ?? null,
    },
  });
  await announceWebhooksUpdate(change, guildId, [channelId]);
  await audit({ guildId, actionType: AuditLogEvent.WebhookCreate, targetId: id, changes: diffChanges({}, auditRecord(created), AUDIT_KEYS) });
  return created;
}

/** GET /channels/{channel.id}/webhooks: MANAGE_WEBHOOKS in the channel. */
export async function listChannelWebhooks(ctx: ServiceContext, input: { channelId: string }): Promise<WebhookObject[]> {
  const { channel } = await requireManageIn(ctx, input.channelId);
  const rows = await ctx.db.webhook.findMany({ where: { channelId: channel.id }, orderBy: { id: "asc" } });
  return present(ctx.db, rows, { withCreator: true });
}

/** GET /guilds/{guild.id}/webhooks: MANAGE_WEBHOOKS in the guild. */
export async function listGuildWebhooks(ctx: ServiceContext, input: { guildId: string }): Promise<WebhookObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  requirePermissions(access, P.ManageWebhooks);
  const rows = await ctx.db.webhook.findMany({ where: { guildId: access.guild.id }, orderBy: { id: "asc" } });
  return present(ctx.db, rows, { withCreator: true });
}

/** GET /webhooks/{webhook.id}: MANAGE_WEBHOOKS in its channel unless the caller's application owns it. */
export async function getWebhook(ctx: ServiceContext, input: { webhookId: string }): Promise<WebhookObject> {
  return presentOne(ctx.db, await loadManagedWebhook(ctx, input.webhookId), { withCreator: true });
}

/** GET /webhooks/{webhook.id}/{webhook.token}: no authentication, no creator. */
export async function getWebhookWithToken(db: Db, input: { webhookId: string; token: string }): Promise<WebhookObject> {
  return presentOne(db, await findWebhookByToken(db, input), { withCreator: false });
}

type WebhookEdit = { name?: string; avatar?: ImageData | null; channelId?: string };

/** Applies an edit: Webhooks Update for the channels it touches and WEBHOOK_UPDATE, when anything changed. */
async function editWebhook(ctx: ChangeContext, row: Webhook, edit: WebhookEdit): Promise<Webhook> {
  const avatarHash = edit.avatar === undefined ? row.avatar : edit.avatar && imageHash(edit.avatar);
  const next: Webhook = { ...row, name: edit.name ?? row.name, avatar: avatarHash, channelId: edit.channelId ?? row.channelId };
  const changes = diffChanges(auditRecord(row), auditRecord(next), AUDIT_KEYS);
  if (changes.length === 0) return row;
  return runChange(ctx, async (change) => {
    const { tx, audit } = change;
    const { count } = await tx.webhook.updateMany({ where: { id: row.id }, data: { name: next.name, avatar: next.avatar, channelId: next.channelId } });
    if (count === 0) throw new ApiError("UNKNOWN_WEBHOOK");
    if (edit.avatar !== undefined) {
      // A replaced avatar that messages were posted under stays until the webhook goes.
      const replaced = row.avatar && !(await isAvatarPostedUnder(tx, row.id, row.avatar)) ? row.avatar : null;
      await replaceImage(change, imageFolder("avatars", row.id), replaced, edit.avatar);
    }
    await announceWebhooksUpdate(change, row.guildId, [row.channelId, next.channelId]);
    if (row.guildId) await audit({ guildId: row.guildId, actionType: AuditLogEvent.WebhookUpdate, targetId: row.id, changes });
    return next;
  });
}

function decodeAvatar(avatar: string | null | undefined): ImageData | null | undefined {
  return typeof avatar === "string" ? decodeImageField("avatar", avatar) : avatar;
}

/** The channel a webhook moves to: a channel of its own guild (else 50035 on channel_id) where the caller manages webhooks. */
async function moveTarget(ctx: ServiceContext, row: Webhook, channelId: string): Promise<string> {
  const guildId = await stateCache(ctx.db).guildIdOfChannel(channelId);
  if (!guildId || guildId !== row.guildId) throw invalidField(["channel_id"], "WEBHOOK_CHANNEL_INVALID", "The channel must be in the webhook's guild.");
  const { channel } = await requireManageIn(ctx, channelId);
  if (!WEBHOOK_CHANNEL_TYPES.has(channel.type)) throw invalidField(["channel_id"], "CHANNEL_TYPE_INVALID", "Webhooks cannot post in this channel type.");
  return channel.id;
}

/**
 * PATCH /webhooks/{webhook.id}: name, avatar, and channel_id to move it within its guild
 * (MANAGE_WEBHOOKS in both channels). Webhooks Update for both channels; audit WEBHOOK_UPDATE.
 */
export async function modifyWebhook(ctx: ServiceContext, input: { webhookId: string; body: TWebhookModifyBody }): Promise<WebhookObject> {
  const row = await loadManagedWebhook(ctx, input.webhookId);
  const { body } = input;
  let channelId: string | undefined;
  if (body.channel_id && body.channel_id !== row.channelId) {
    if (row.channelId) await requireManageIn(ctx, row.channelId);
    channelId = await moveTarget(ctx, row, body.channel_id);
  }
  const updated = await editWebhook(ctx, row, { name: body.name, avatar: decodeAvatar(body.avatar), channelId });
  return presentOne(ctx.db, updated, { withCreator: true });
}

/** PATCH /webhooks/{webhook.id}/{webhook.token}: name and avatar, no authentication, no creator. */
export async function modifyWebhookWithToken(
  ctx: ChangeContext,
  input: { webhookId: string; token: string; body: TWebhookTokenModifyBody },
): Promise<WebhookObject> {
  const row = await findWebhookByToken(ctx.db, input);
  const updated = await editWebhook({ ...ctx, actor: null }, row, { name: input.body.name, avatar: decodeAvatar(input.body.avatar) });
  return presentOne(ctx.db, updated, { withCreator: false });
}

async function removeWebhook(ctx: ChangeContext, row: Webhook): Promise<void> {
  await runChange(ctx, async (change) => {
    if ((await deleteWebhookRows(change, [row.id])) === 0) throw new ApiError("UNKNOWN_WEBHOOK");
    await announceWebhooksUpdate(change, row.guildId, [row.channelId]);
    if (row.guildId) {
      await change.audit({
        guildId: row.guildId,
        actionType: AuditLogEvent.WebhookDelete,
        targetId: row.id,
        changes: diffChanges(auditRecord(row), {}, AUDIT_KEYS),
      });
    }
  });
}

/** DELETE /webhooks/{webhook.id}: as GET; Webhooks Update; audit WEBHOOK_DELETE. */
export async function deleteWebhook(ctx: ServiceContext, input: { webhookId: string }): Promise<void> {
  await removeWebhook(ctx, await loadManagedWebhook(ctx, input.webhookId));
}

/** DELETE /webhooks/{webhook.id}/{webhook.token}: no authentication. */
export async function deleteWebhookWithToken(ctx: ChangeContext, input: { webhookId: string; token: string }): Promise<void> {
  await removeWebhook({ ...ctx, actor: null }, await findWebhookByToken(ctx.db, input));
}
