import { randomBytes } from "node:crypto";
import { inviteCreateDenial, inviteListDenial, inviteRevokeDenial, manageGuildDenial } from "~/server/guilds/guild-section-rules.ts";
import { LRUCache } from "lru-cache";
import { AuditLogEvent, ChannelType, GatewayDispatchEvents, InviteTargetType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { loadChannelAccess } from "~/server/channels/channel-read.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange, type Change } from "~/server/events/change.ts";
import { enforce, roleChangeDenial } from "~/server/members/member-rules.ts";
import { accessIn, channelPermissions, loadGuildAccess, loadGuildState, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { hasPermission } from "~/server/permissions/permissions.ts";
import { CACHES } from "~/server/runtime/cache-registry.ts";
import { findGuildScheduledEvent, type ScheduledEventObject } from "~/server/scheduled-events/scheduled-event.service.ts";
import { preserialize } from "~/server/state/wire-json.ts";
import { isInviteLive, toInviteCreateEventData, toInviteObject, type InviteObject, type InviteRow } from "./invite.dto.ts";
import { inviteCounts, readLiveInvite } from "./invite-reads.ts";
import { GUEST_INVITE_FLAG, GUILD_INVITES_MAX, INVITE_MAX_AGE_DEFAULT, type TInviteCreateBody, type TInviteGetQuery } from "./invite.schema.ts";

/** Which guild an invite code belongs to: fixed for an invite's life, so only bounded. */
const inviteGuilds = new LRUCache<string, string>({ max: CACHES.inviteGuilds.max });
/** How long counts in a cached invite answer stand. */
const COUNTS_TTL_MS = 30_000;

const CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const CODE_LENGTH = 10;

/** A random invite code: 10 characters of 62, about 59 bits, from the system's CSPRNG. */
function newInviteCode(): string {
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps the draw uniform.
  let code = "";
  while (code.length < CODE_LENGTH) {
    for (const byte of randomBytes(CODE_LENGTH * 2)) {
      if (byte < 248 && code.length < CODE_LENGTH) code += CODE_ALPHABET[byte % 62];
    }
  }
  return code;
}

/** The invite object with its inviter, target user and the guild's roles looked up. */
async function present(db: Db, row: InviteRow, options: { withMetadata?: boolean; withCounts?: boolean } = {}): Promise<InviteObject> {
  const state = await loadGuildState(db, row.guildId);
  const [inviter, targetUser] = [
    row.inviterId ? await db.user.findUnique({ where: { id: row.inviterId } }) : null,
    row.targetUserId ? await db.user.findUnique({ where: { id: row.targetUserId } }) : null,
  ];
  const counts = options.withCounts ? await inviteCounts(db, row.guildId) : undefined;
  return toInviteObject(row, { inviter, targetUser, roles: state.roles, emojis: state.expressions.emojis, counts, withMetadata: options.withMetadata });
}

/** Checks a new invite's targets, roles and flags against the channel and the caller. */
async function checkInviteOptions(db: Db, access: GuildAccess, channel: { id: string; type: number }, body: TInviteCreateBody): Promise<void> {
  if (body.flags && body.flags & GUEST_INVITE_FLAG && channel.type !== ChannelType.GuildVoice) {
    throw invalidField(["flags"], "GUEST_INVITE_NOT_VOICE", "Guest invites are for voice channels only.");
  }
  if (body.flags && body.flags & ~GUEST_INVITE_FLAG) throw invalidField(["flags"], "BASE_TYPE_INVALID", "Only IS_GUEST_INVITE can be set.");
  if (body.target_type === InviteTargetType.Stream) {
    if (!body.target_user_id) throw invalidField(["target_user_id"], "BASE_TYPE_REQUIRED", "A stream invite needs the streaming user.");
    const voice = await db.voiceState.findUnique({ where: { guildId_userId: { guildId: access.guild.id, userId: body.target_user_id } } });
    if (voice?.channelId !== channel.id) throw invalidField(["target_user_id"], "TARGET_USER_NOT_STREAMING", "That user is not in this voice channel.");
  }
  if (body.target_type === InviteTargetType.EmbeddedApplication) {
    const app = body.target_application_id ? await db.application.findUnique({ where: { id: body.target_application_id }, select: { id: true } }) : null;
    if (!app) throw invalidField(["target_application_id"], "BASE_TYPE_REQUIRED", "An embedded application invite needs a known application.");
  }
  for (const roleId of new Set(body.role_ids ?? [])) {
    const role = access.roles.find((r) => r.id === roleId);
    if (!role) throw new ApiError("UNKNOWN_ROLE");
    enforce(roleChangeDenial(access, role));
  }
  const targets = [...new Set(body.target_user_ids ?? [])];
  if (targets.length > 0) {
    const known = await db.user.count({ where: { id: { in: targets } } });
    if (known !== targets.length) throw invalidField(["target_user_ids"], "UNKNOWN_USER", "Every target user must be a known user.");
  }
}

/** What an invite is made with; the code, times and uses come when it is stored. */
type InviteSettings = Pick<
  InviteRow,
  "guildId" | "channelId" | "inviterId" | "maxAge" | "maxUses" | "temporary" | "targetType" | "targetUserId" | "targetApplicationId" | "flags" | "roleIds"
>;

/** Stores a new invite within the guild's limit, with Invite Create and the audit entry INVITE_CREATE. */
async function insertInvite({ tx, emit, audit }: Change, settings: InviteSettings, targetUserIds: readonly string[] = []): Promise<InviteRow> {
  const createdAt = new Date();
  // Expired invites the sweep has not deleted yet are gone already and do not count
  // (used-up ones are deleted by the use that reaches max_uses).
  const live = await tx.invite.count({ where: { guildId: settings.guildId, OR: [{ expiresAt: null }, { expiresAt: { gt: createdAt } }] } });
  if (live >= GUILD_INVITES_MAX) throw new ApiError("MAX_INVITES");
  const created = await tx.invite.create({
    data: {
      ...settings,
      code: newInviteCode(),
      createdAt,
      expiresAt: settings.maxAge === 0 ? null : new Date(createdAt.getTime() + settings.maxAge * 1000),
      targetUsers: { create: targetUserIds.map((userId) => ({ userId })) },
    },
    include: { guild: true, channel: true },
  });
  // One after the other: a transaction is one connection, which runs one query at a time.
  const inviter = settings.inviterId ? await tx.user.findUniqueOrThrow({ where: { id: settings.inviterId } }) : null;
  const targetUser = settings.targetUserId ? await tx.user.findUnique({ where: { id: settings.targetUserId } }) : null;
  await emit(GatewayDispatchEvents.InviteCreate, toInviteCreateEventData(created, { inviter, targetUser }));
  await audit({
    guildId: created.guildId,
    actionType: AuditLogEvent.InviteCreate,
    targetId: null,
    changes: [
      { key: "code", new_value: created.code },
      { key: "channel_id", new_value: created.channelId },
      ...(created.inviterId ? [{ key: "inviter_id", new_value: created.inviterId }] : []),
      { key: "uses", new_value: 0 },
      { key: "max_uses", new_value: created.maxUses },
      { key: "max_age", new_value: created.maxAge },
      { key: "temporary", new_value: created.temporary },
      { key: "flags", new_value: created.flags },
    ],
  });
  return created;
}

/**
 * POST /channels/{channel.id}/invites: CREATE_INSTANT_INVITE on the channel. Without
 * `unique`, a live invite of the caller's with the same settings is answered instead of a
 * new one. Fires Invite Create; audit INVITE_CREATE.
 */
export async function createInvite(ctx: ServiceContext, input: { channelId: string; body: TInviteCreateBody }): Promise<InviteObject> {
  const { body } = input;
  const { access, channel, permissions } = await loadChannelAccess(ctx, input.channelId);
  enforce(inviteCreateDenial(access, permissions));
  if (channel.type === ChannelType.GuildCategory) throw invalidField(["channel_id"], "CHANNEL_TYPE_INVALID", "Categories cannot have invites.");
  await checkInviteOptions(ctx.db, access, channel, body);
  const maxAge = body.max_age ?? INVITE_MAX_AGE_DEFAULT;
  const settings = {
    guildId: access.guild.id,
    channelId: channel.id,
    inviterId: ctx.actor.userId,
    maxAge,
    maxUses: body.max_uses ?? 0,
    temporary: body.temporary ?? false,
    targetType: body.target_type ?? null,
    targetUserId: body.target_type === InviteTargetType.Stream ? (body.target_user_id ?? null) : null,
    targetApplicationId: body.target_type === InviteTargetType.EmbeddedApplication ? (body.target_application_id ?? null) : null,
    flags: body.flags ?? 0,
    roleIds: JSON.stringify([...new Set(body.role_ids ?? [])]),
  };
  const targetUserIds = [...new Set(body.target_user_ids ?? [])];
  const reusable = !body.unique && targetUserIds.length === 0;

  const row = await runChange(ctx, async (change) => {
    if (reusable) {
      const same = await change.tx.invite.findFirst({
        where: { ...settings, targetUsers: { none: {} } },
        include: { guild: true, channel: true },
        orderBy: { createdAt: "desc" },
      });
      if (same && isInviteLive(same, new Date())) return same;
    }
    return insertInvite(change, settings, targetUserIds);
  });
  return present(ctx.db, row, { withMetadata: true });
}

/** An invite the service hands out itself: no target, no roles, not temporary. */
function plainInvite(input: Pick<InviteSettings, "guildId" | "channelId" | "inviterId" | "maxAge" | "maxUses">): InviteSettings {
  return { ...input, temporary: false, targetType: null, targetUserId: null, targetApplicationId: null, flags: 0, roleIds: "[]" };
}

/** Widget invites last a day; one is handed out again only while it has an hour left. */
const WIDGET_INVITE_MAX_AGE = 86_400;
const WIDGET_INVITE_MIN_LIFE_MS = 60 * 60 * 1000;

/**
 * The code of the invite the guild widget shows for `channelId` (spec 4.2): a live invite the
 * widget made before, else a new one (Invite Create). Widget invites are the only ones
 * without an inviter: nobody asked for them.
 */
export async function provideWidgetInvite(db: Db, input: { guildId: string; channelId: string }): Promise<string> {
  const settings = plainInvite({ guildId: input.guildId, channelId: input.channelId, inviterId: null, maxAge: WIDGET_INVITE_MAX_AGE, maxUses: 0 });
  return runChange({ db, actor: null }, async (change) => {
    const earlier = await change.tx.invite.findFirst({
      where: { ...settings, targetUsers: { none: {} }, expiresAt: { gt: new Date(Date.now() + WIDGET_INVITE_MIN_LIFE_MS) } },
      orderBy: { createdAt: "desc" },
      select: { code: true },
    });
    return earlier?.code ?? (await insertInvite(change, settings)).code;
  });
}

/**
 * A lobby's invite into its linked channel (spec 4.7), in the caller's change: always new,
 * single use, for an hour, with the user it is for as the inviter. The lobby's rules decide
 * who gets one, once the lobby service has checked that the member who linked the channel
 * may create invites there.
 */
export async function insertLobbyInvite(change: Change, input: { guildId: string; channelId: string; inviterId: string; maxAge: number }): Promise<string> {
  return (await insertInvite(change, plainInvite({ ...input, maxUses: 1 }))).code;
}

/** GET /invites/{invite.code}: no authentication; counts only when asked. Vanity codes resolve too. */
export async function getInvite(
  db: Db,
  input: { code: string; query: TInviteGetQuery },
  isRetry = false,
): Promise<InviteObject & { guild_scheduled_event?: ScheduledEventObject }> {
  const { code } = input;
  const withCounts = input.query.with_counts ?? false;
  const guildId = inviteGuilds.get(code) ?? (await readLiveInvite(db, code)).guildId;
  // Kept with the guild's state: creating, using, deleting an invite and changing the vanity
  // code are all guild events. Counts of members seen lately also age, so they expire.
  const state = await loadGuildState(db, guildId);
  const answer = await state.answer(
    `invite ${code} ${withCounts}`,
    async () => {
      const row = await readLiveInvite(db, code);
      return row.guildId === guildId ? preserialize(await present(db, row, { withCounts })) : null;
    },
    withCounts ? COUNTS_TTL_MS : undefined,
  );
  if (!answer) {
    // A vanity code that moved to another guild: look it up afresh, once.
    inviteGuilds.delete(code);
    if (isRetry) throw new ApiError("UNKNOWN_INVITE");
    return getInvite(db, input, true);
  }
  inviteGuilds.set(code, guildId);
  // Expiry is the clock's, not an event: checked on every read.
  if (answer.expires_at !== null && Date.parse(answer.expires_at) <= Date.now()) throw new ApiError("UNKNOWN_INVITE");
  // Only a real event of the invite's guild is shown (spec 2.1).
  const eventId = input.query.guild_scheduled_event_id;
  const event = eventId ? await findGuildScheduledEvent(db, guildId, eventId) : null;
  return event ? { ...answer, guild_scheduled_event: event } : answer;
}

/** The caller's access in the invite's guild (50001 for outsiders). */
async function accessForInvite(ctx: ServiceContext, row: InviteRow): Promise<GuildAccess> {
  return accessIn(await loadGuildState(ctx.db, row.guildId, ctx.actor.userId), ctx.actor);
}

/** DELETE /invites/{invite.code}: MANAGE_CHANNELS on its channel or MANAGE_GUILD; answers the invite; Invite Delete. */
export async function deleteInvite(ctx: ServiceContext, input: { code: string }): Promise<InviteObject> {
  const row = await ctx.db.invite.findUnique({ where: { code: input.code }, include: { guild: true, channel: true } });
  // An expired invite is gone as soon as it is read; the sweep deletes the row and fires Invite Delete.
  if (!row || !isInviteLive(row, new Date())) throw new ApiError("UNKNOWN_INVITE");
  const access = await accessForInvite(ctx, row);
  const channel = (await access.state.channels()).byId.get(row.channelId);
  const inChannel = channel ? channelPermissions(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) }) : 0n;
  enforce(inviteRevokeDenial(access, inChannel));
  const answer = await present(ctx.db, row, { withMetadata: true });
  await runChange(ctx, async ({ tx, emit, audit }) => {
    const { count } = await tx.invite.deleteMany({ where: { code: row.code } });
    if (count === 0) throw new ApiError("UNKNOWN_INVITE");
    await emit(GatewayDispatchEvents.InviteDelete, { channel_id: row.channelId, guild_id: row.guildId, code: row.code });
    await audit({
      guildId: row.guildId,
      actionType: AuditLogEvent.InviteDelete,
      targetId: null,
      changes: [
        { key: "code", old_value: row.code },
        { key: "channel_id", old_value: row.channelId },
        { key: "uses", old_value: row.uses },
        { key: "max_uses", old_value: row.maxUses },
        { key: "max_age", old_value: row.maxAge },
      ],
    });
  });
  return answer;
}

async function presentLive(db: Db, rows: InviteRow[], withMetadata: boolean): Promise<InviteObject[]> {
  const now = new Date();
  const live = rows.filter((row) => isInviteLive(row, now));
  const answers: InviteObject[] = [];
  for (const row of live) answers.push(await present(db, row, { withMetadata }));
  return answers;
}

/** GET /channels/{channel.id}/invites: MANAGE_CHANNELS on the channel; with metadata. */
export async function listChannelInvites(ctx: ServiceContext, input: { channelId: string }): Promise<InviteObject[]> {
  const { channel, permissions } = await loadChannelAccess(ctx, input.channelId);
  if (!hasPermission(permissions, P.ManageChannels)) throw new ApiError("MISSING_PERMISSIONS");
  const rows = await ctx.db.invite.findMany({ where: { channelId: channel.id }, include: { guild: true, channel: true }, orderBy: { createdAt: "asc" } });
  return presentLive(ctx.db, rows, true);
}

/** GET /guilds/{guild.id}/invites: MANAGE_GUILD or VIEW_AUDIT_LOG; metadata only with MANAGE_GUILD. */
export async function listGuildInvites(ctx: ServiceContext, input: { guildId: string }): Promise<InviteObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(inviteListDenial(access));
  const canManage = !manageGuildDenial(access);
  const rows = await ctx.db.invite.findMany({ where: { guildId: access.guild.id }, include: { guild: true, channel: true }, orderBy: { createdAt: "asc" } });
  return presentLive(ctx.db, rows, canManage);
}
