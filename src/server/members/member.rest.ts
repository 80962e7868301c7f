import { created, noContent, ok, route } from "~/server/rest/route.ts";
import { addMemberWithToken } from "./add-member.service.ts";
import { banUser, bulkBan, getBan, listBans, unbanUser } from "./ban.service.ts";
import {
  banDeleteSeconds,
  ZBanCreateBodySchema,
  ZBanListQuerySchema,
  ZBulkBanBodySchema,
  ZCurrentMemberModifyBodySchema,
  ZCurrentNickBodySchema,
  ZMemberAddBodySchema,
  ZMemberListQuerySchema,
  ZMemberModifyBodySchema,
  ZMemberSearchQuerySchema,
  ZPruneBodySchema,
  ZPruneQuerySchema,
  ZScreeningBodySchema,
} from "./member.schema.ts";
import { completeScreening, getMember, kickMember, leaveGuild, listMembers, searchMembers } from "./member.service.ts";
import { modifyCurrentMember, modifyMember, setMemberRole } from "./modify-member.service.ts";
import { previewPrune, prune } from "./prune.service.ts";
import { getScreening, setScreening } from "./screening.service.ts";

export const memberRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/members",
    auth: "bot",
    open: { to: "member", why: "needs only the GUILD_MEMBERS intent (spec 5)" },
    query: ZMemberListQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listMembers(ctx, { guildId: params.guildId, query })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/members/search",
    auth: "bot",
    open: { to: "member", why: "any member finds members" },
    query: ZMemberSearchQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await searchMembers(ctx, { guildId: params.guildId, query })),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/members/@me",
    auth: "bot",
    body: ZCurrentMemberModifyBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await modifyCurrentMember(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/members/@me/nick",
    auth: "bot",
    body: ZCurrentNickBodySchema.default({}),
    handler: async ({ ctx, params, body }) => {
      const member = await modifyCurrentMember(ctx, { guildId: params.guildId, body });
      return ok({ nick: member.nick });
    },
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/members/:userId",
    auth: "bot",
    open: { to: "member", why: "any member reads members" },
    handler: async ({ ctx, params }) => ok(await getMember(ctx, params)),
  }),
  route({
    method: "PUT",
    path: "/guilds/:guildId/members/:userId",
    auth: "bot",
    body: ZMemberAddBodySchema,
    handler: async ({ ctx, params, body }) => {
      const member = await addMemberWithToken(ctx, { guildId: params.guildId, userId: params.userId, body });
      return member ? created(member) : noContent();
    },
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/members/:userId",
    auth: "bot",
    body: ZMemberModifyBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await modifyMember(ctx, { guildId: params.guildId, userId: params.userId, body })),
  }),
  route({
    method: "DELETE",
    path: "/guilds/:guildId/members/:userId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await kickMember(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "PUT",
    path: "/guilds/:guildId/members/:userId/roles/:roleId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await setMemberRole(ctx, { ...params, held: true });
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: "/guilds/:guildId/members/:userId/roles/:roleId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await setMemberRole(ctx, { ...params, held: false });
      return noContent();
    },
  }),
  // Get Current User Guild Member: the caller's own member object in a guild it is in.
  route({
    method: "GET",
    path: "/users/@me/guilds/:guildId/member",
    auth: "bearer",
    scopes: ["guilds.members.read"],
    open: { to: "member", why: "the caller's own member object" },
    handler: async ({ ctx, params }) => ok(await getMember(ctx, { guildId: params.guildId, userId: ctx.actor.userId })),
  }),
  route({
    method: "DELETE",
    path: "/users/@me/guilds/:guildId",
    auth: "bot",
    open: { to: "member", why: "a member may leave" },
    handler: async ({ ctx, params }) => {
      await leaveGuild(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/member-verification",
    auth: "bot",
    open: { to: "member", why: "members read the screening form to fill it in" },
    handler: async ({ ctx, params }) => ok(await getScreening(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/member-verification",
    auth: "bot",
    body: ZScreeningBodySchema,
    handler: async ({ ctx, params, body }) => ok(await setScreening(ctx, { guildId: params.guildId, enabled: body.enabled })),
  }),
  // The platform's path for a member completing membership screening.
  route({
    method: "PUT",
    path: "/guilds/:guildId/requests/@me",
    auth: "bearer",
    scopes: ["guilds.join"],
    open: { to: "member", why: "a member completes their own screening" },
    handler: async ({ ctx, params }) => ok(await completeScreening(ctx, params)),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/bans",
    auth: "bot",
    query: ZBanListQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await listBans(ctx, { guildId: params.guildId, query })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/bans/:userId",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getBan(ctx, params)),
  }),
  route({
    method: "PUT",
    path: "/guilds/:guildId/bans/:userId",
    auth: "bot",
    body: ZBanCreateBodySchema.default({}),
    handler: async ({ ctx, params, body }) => {
      await banUser(ctx, { ...params, deleteMessageSeconds: banDeleteSeconds(body) });
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: "/guilds/:guildId/bans/:userId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await unbanUser(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/guilds/:guildId/bulk-ban",
    auth: "bot",
    body: ZBulkBanBodySchema,
    handler: async ({ ctx, params, body }) => ok(await bulkBan(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/prune",
    auth: "bot",
    query: ZPruneQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await previewPrune(ctx, { guildId: params.guildId, prune: query })),
  }),
  route({
    method: "POST",
    path: "/guilds/:guildId/prune",
    auth: "bot",
    body: ZPruneBodySchema.prefault({}),
    handler: async ({ ctx, params, body }) => {
      const { compute_prune_count, reason, ...input } = body;
      const auditReason = ctx.auditReason ?? reason ?? null;
      return ok(await prune({ ...ctx, auditReason }, { guildId: params.guildId, prune: input, computeCount: compute_prune_count }));
    },
  }),
];
