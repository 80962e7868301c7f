import { created, noContent, ok, route } from "~/server/rest/route.ts";
import { ZGuildCreateBodySchema, ZGuildGetQuerySchema, ZGuildModifyBodySchema } from "./guild.schema.ts";
import { createGuild, deleteGuild, getGuild, getGuildPreview, modifyGuild } from "./guild.service.ts";

export const guildRoutes = [
  route({
    method: "POST",
    path: "/guilds",
    auth: "bot",
    open: { to: "outsider", why: "the guild made is the caller's own" },
    body: ZGuildCreateBodySchema,
    handler: async ({ ctx, body }) => created(await createGuild(ctx, body)),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId",
    auth: "bot",
    open: { to: "member", why: "any member reads the guild" },
    query: ZGuildGetQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await getGuild(ctx, { guildId: params.guildId, withCounts: query.with_counts })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/preview",
    auth: "bot",
    open: { to: "outsider", why: "a discoverable guild's preview is for anyone (spec 4.2)" },
    handler: async ({ ctx, params }) => ok(await getGuildPreview(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId",
    auth: "bot",
    body: ZGuildModifyBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await modifyGuild(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "DELETE",
    path: "/guilds/:guildId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await deleteGuild(ctx, params);
      return noContent();
    },
  }),
];
