import { ok, route } from "~/server/rest/route.ts";
import { acceptInvite } from "./accept-invite.service.ts";
import { ZInviteCreateBodySchema, ZInviteGetQuerySchema, ZVanityBodySchema } from "./invite.schema.ts";
import { createInvite, deleteInvite, getInvite, listChannelInvites, listGuildInvites } from "./invite.service.ts";
import { getVanityUrl, setVanityUrl } from "./vanity.service.ts";

export const inviteRoutes = [
  route({
    method: "POST",
    path: "/channels/:channelId/invites",
    auth: "bot",
    body: ZInviteCreateBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await createInvite(ctx, { channelId: params.channelId, body })),
  }),
  route({
    method: "GET",
    path: "/channels/:channelId/invites",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await listChannelInvites(ctx, params)),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/invites",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await listGuildInvites(ctx, params)),
  }),
  route({
    method: "GET",
    path: "/invites/:code",
    auth: "none",
    query: ZInviteGetQuerySchema,
    handler: async ({ ctx, params, query }) => ok(await getInvite(ctx.db, { code: params.code, query })),
  }),
  route({
    method: "DELETE",
    path: "/invites/:code",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await deleteInvite(ctx, params)),
  }),
  // The platform keeps this call for its own client; Guildhall offers it so test suites and
  // game clients can join users. Answers the invite as it was accepted, as the platform does.
  route({
    method: "POST",
    path: "/invites/:code",
    auth: "bearer",
    scopes: ["guilds.join"],
    handler: async ({ ctx, params }) => {
      const invite = await getInvite(ctx.db, { code: params.code, query: {} });
      const { joined } = await acceptInvite(ctx, params);
      return ok({ ...invite, new_member: joined });
    },
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/vanity-url",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getVanityUrl(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/vanity-url",
    auth: "bot",
    body: ZVanityBodySchema,
    handler: async ({ ctx, params, body }) => ok(await setVanityUrl(ctx, { guildId: params.guildId, code: body.code })),
  }),
];
