import { ok, route } from "~/server/rest/route.ts";
import { ZScheduledEventCreateBodySchema, ZScheduledEventListQuerySchema } from "./scheduled-event.schema.ts";
import { createScheduledEvent, getScheduledEvent, listScheduledEvents } from "./scheduled-event.service.ts";

export const scheduledEventRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/scheduled-events",
    auth: "bot",
    open: { to: "member", why: "members see the events of channels they can view" },
    query: ZScheduledEventListQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listScheduledEvents(ctx, { guildId: params.guildId, withUserCount: query.with_user_count ?? false })),
  }),
  route({
    method: "POST",
    path: "/guilds/:guildId/scheduled-events",
    auth: "bot",
    body: ZScheduledEventCreateBodySchema,
    handler: async ({ ctx, params, body }) => ok(await createScheduledEvent(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/scheduled-events/:eventId",
    auth: "bot",
    open: { to: "member", why: "members see the events of channels they can view" },
    query: ZScheduledEventListQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await getScheduledEvent(ctx, { ...params, withUserCount: query.with_user_count ?? false })),
  }),
];
