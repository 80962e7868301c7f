import {
  AuditLogEvent,
  ChannelType,
  GatewayDispatchEvents,
  GuildScheduledEventEntityType as Entity,
  PermissionFlagsBits as P,
  type APIGuildScheduledEvent,
} from "discord-api-types/v10";
import type { ScheduledEvent, User } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { loadGuildAccess, requirePermissions } from "~/server/permissions/guild-access.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import type { TScheduledEventCreateBody } from "./scheduled-event.schema.ts";

/**
 * The guild scheduled event object: APIGuildScheduledEvent for its entity type, and the
 * platform's `guild_scheduled_event_exceptions`, which discord-api-types lacks (docs/wire-differences.md).
 */
export type ScheduledEventObject = APIGuildScheduledEvent & { guild_scheduled_event_exceptions: [] };

export function toScheduledEventObject(row: ScheduledEvent, creator: User | null, userCount?: number): ScheduledEventObject {
  const common = {
    id: row.id,
    guild_id: row.guildId,
    creator_id: row.creatorId,
    ...(creator && { creator: toUserObject(creator) }),
    name: row.name,
    description: row.description,
    image: null,
    scheduled_start_time: row.scheduledStartTime.toISOString(),
    scheduled_end_time: row.scheduledEndTime?.toISOString() ?? null,
    privacy_level: row.privacyLevel,
    status: row.status,
    entity_id: null,
    recurrence_rule: null,
    guild_scheduled_event_exceptions: [] as [],
    ...(userCount !== undefined && { user_count: userCount }),
  };
  // An external event has a location and no channel, the others a channel: createScheduledEvent checks both.
  if (row.entityType === Entity.External)
    return { ...common, entity_type: row.entityType, channel_id: null, entity_metadata: { location: row.location! } } satisfies ScheduledEventObject;
  return {
    ...common,
    entity_type: row.entityType as Entity.StageInstance | Entity.Voice,
    channel_id: row.channelId!,
    entity_metadata: null,
  } satisfies ScheduledEventObject;
}

async function present(db: Db, row: ScheduledEvent, withUserCount = false): Promise<ScheduledEventObject> {
  const creator = row.creatorId ? await db.user.findUnique({ where: { id: row.creatorId } }) : null;
  // Nobody can mark interest yet, so the count is 0.
  return toScheduledEventObject(row, creator, withUserCount ? 0 : undefined);
}

/** An event of this guild by id, or null: what an invite's `guild_scheduled_event_id` may name. */
export async function findGuildScheduledEvent(db: Db, guildId: string, eventId: string): Promise<ScheduledEventObject | null> {
  const row = await db.scheduledEvent.findFirst({ where: { id: eventId, guildId } });
  return row && present(db, row);
}

/** GET /guilds/{guild.id}/scheduled-events: members. */
export async function listScheduledEvents(ctx: ServiceContext, input: { guildId: string; withUserCount: boolean }): Promise<ScheduledEventObject[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const rows = await ctx.db.scheduledEvent.findMany({ where: { guildId: access.guild.id }, orderBy: { scheduledStartTime: "asc" } });
  const answers: ScheduledEventObject[] = [];
  for (const row of rows) answers.push(await present(ctx.db, row, input.withUserCount));
  return answers;
}

/** GET /guilds/{guild.id}/scheduled-events/{id}: 10070 Unknown Guild Scheduled Event. */
export async function getScheduledEvent(
  ctx: ServiceContext,
  input: { guildId: string; eventId: string; withUserCount: boolean },
): Promise<ScheduledEventObject> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const row = await ctx.db.scheduledEvent.findFirst({ where: { id: input.eventId, guildId: access.guild.id } });
  if (!row) throw new ApiError("UNKNOWN_SCHEDULED_EVENT");
  return present(ctx.db, row, input.withUserCount);
}

/**
 * POST /guilds/{guild.id}/scheduled-events: MANAGE_EVENTS. Stage and voice events need a
 * channel of that type in the guild; external events a location and an end. Starts in the
 * future, ends after it starts. Fires Guild Scheduled Event Create.
 */
export async function createScheduledEvent(ctx: ServiceContext, input: { guildId: string; body: TScheduledEventCreateBody }): Promise<ScheduledEventObject> {
  const { body } = input;
  const access = await loadGuildAccess(ctx, input.guildId);
  requirePermissions(access, P.ManageEvents);
  const start = new Date(body.scheduled_start_time);
  const end = body.scheduled_end_time ? new Date(body.scheduled_end_time) : null;
  if (start.getTime() <= Date.now())
    throw invalidField(["scheduled_start_time"], "GUILD_SCHEDULED_EVENT_SCHEDULED_START_TIME_IN_PAST", "Cannot schedule an event to start in the past.");
  if (end && end.getTime() <= start.getTime()) throw invalidField(["scheduled_end_time"], "BASE_TYPE_INVALID", "An event must end after it starts.");
  let channelId: string | null = null;
  let location: string | null = null;
  if (body.entity_type === Entity.External) {
    location = body.entity_metadata?.location ?? null;
    if (!location) throw invalidField(["entity_metadata", "location"], "BASE_TYPE_REQUIRED", "External events need a location.");
    if (!end) throw invalidField(["scheduled_end_time"], "BASE_TYPE_REQUIRED", "External events need an end time.");
  } else {
    const wanted = body.entity_type === Entity.StageInstance ? ChannelType.GuildStageVoice : ChannelType.GuildVoice;
    const channel = body.channel_id ? (await access.state.channels()).byId.get(body.channel_id) : undefined;
    if (channel?.type !== wanted)
      throw invalidField(["channel_id"], "CHANNEL_TYPE_INVALID", "Stage and voice events need a channel of that type in this guild.");
    channelId = channel.id;
  }
  const row = await runChange(ctx, async ({ tx, emit, audit }) => {
    const created = await tx.scheduledEvent.create({
      data: {
        id: newId(),
        guildId: access.guild.id,
        channelId,
        creatorId: ctx.actor.userId,
        name: body.name,
        description: body.description ?? null,
        scheduledStartTime: start,
        scheduledEndTime: end,
        privacyLevel: body.privacy_level,
        entityType: body.entity_type,
        location,
      },
    });
    await emit(GatewayDispatchEvents.GuildScheduledEventCreate, toScheduledEventObject(created, null));
    await audit({
      guildId: created.guildId,
      actionType: AuditLogEvent.GuildScheduledEventCreate,
      targetId: created.id,
      changes: [
        { key: "name", new_value: created.name },
        { key: "entity_type", new_value: created.entityType },
      ],
    });
    return created;
  });
  return present(ctx.db, row);
}
