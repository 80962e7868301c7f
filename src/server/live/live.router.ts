import { z } from "zod";
import { ZApplicationIdInputSchema } from "~/server/applications/application.schema.ts";
import { ownedApplication } from "~/server/applications/application-dashboard.service.ts";
import { outboxHead } from "~/server/events/outbox-read.ts";
import { loadGuildAccess } from "~/server/permissions/guild-access.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { guildNotice, isLobbyEvent, lobbyNotice, type LobbyNotice } from "./live-notice.ts";
import { liveStream, seqOf, type Decision } from "./live-stream.ts";
import { guildViewerOf, isMembershipChangedAfter, lobbyApplicationOf, ownsApplication, routedOf } from "./live-viewer.ts";

/** The browser's last event id: sent back by its EventSource when it reconnects, or the outbox head its page was rendered at. */
const ZLastEventIdSchema = { lastEventId: z.string().max(20).nullish() };

const NOTHING = { notice: null, end: false } as const;

/**
 * The dashboard's live streams (tRPC subscriptions over server-sent events): one per guild
 * page and one per application's lobby pages. They send notices (an event's name and ids),
 * and each page refetches what it shows through its own reads.
 */
export const liveRouter = createTRPCRouter({
  /** The newest event's seq: a page rendered now starts its stream after it, so nothing between the render and the stream is missed. */
  head: protectedProcedure.query(async ({ ctx }) => String(await outboxHead(ctx.db))),

  /** A guild's events, as far as the signed-in member may read them; ends when they leave the guild. */
  guild: protectedProcedure.input(z.object({ guildId: ZSnowflakeSchema, ...ZLastEventIdSchema })).subscription(async ({ ctx, input, signal }) => {
    // Outsiders get what guild reads answer them (10004 or 50001), before any stream.
    await loadGuildAccess(ctx, input.guildId);
    const { db } = ctx;
    const userId = ctx.actor.userId;
    return liveStream({
      db,
      after: seqOf(input.lastEventId),
      mayReplayAfter: async (after) => !(await isMembershipChangedAfter(db, input.guildId, userId, after)),
      signal,
      async decide(stored) {
        const event = stored.guildId === input.guildId ? routedOf(stored) : null;
        if (!event) return NOTHING;
        const notice = guildNotice(event, await guildViewerOf(db, stored, event, userId));
        return { notice, end: notice?.gone ?? false };
      },
    });
  }),

  /** Events of an application's lobbies, to its owner; ends if they no longer own it. */
  application: protectedProcedure.input(ZApplicationIdInputSchema.extend(ZLastEventIdSchema)).subscription(async ({ ctx, input, signal }) => {
    await ownedApplication(ctx, input.applicationId);
    const { db } = ctx;
    const userId = ctx.actor.userId;
    const { applicationId } = input;
    return liveStream({
      db,
      after: seqOf(input.lastEventId),
      signal,
      async decide(stored): Promise<Decision<LobbyNotice>> {
        if (!isLobbyEvent(stored)) return NOTHING;
        const lobbyApplicationId = await lobbyApplicationOf(stored, db);
        if (lobbyApplicationId !== applicationId) return NOTHING;
        const owns = await ownsApplication(db, applicationId, userId);
        return { notice: lobbyNotice(stored, { applicationId, ownsApplication: owns }, lobbyApplicationId), end: !owns };
      },
    });
  }),
});
