import { noContent, ok, route } from "~/server/rest/route.ts";
import { ZRoleParamsSchema, ZRolePositionsBodySchema } from "./role.schema.ts";
import { createRole, deleteRole, getRole, listRoles, modifyRole, modifyRolePositions } from "./role.service.ts";

export const roleRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/roles",
    auth: "bot",
    open: { to: "member", why: "any member reads the guild's roles" },
    handler: async ({ ctx, params }) => ok(await listRoles(ctx, params)),
  }),
  route({
    method: "POST",
    path: "/guilds/:guildId/roles",
    auth: "bot",
    body: ZRoleParamsSchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await createRole(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/roles",
    auth: "bot",
    body: ZRolePositionsBodySchema,
    handler: async ({ ctx, params, body }) => ok(await modifyRolePositions(ctx, { guildId: params.guildId, positions: body })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/roles/:roleId",
    auth: "bot",
    open: { to: "member", why: "any member reads the guild's roles" },
    handler: async ({ ctx, params }) => ok(await getRole(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/roles/:roleId",
    auth: "bot",
    body: ZRoleParamsSchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await modifyRole(ctx, { guildId: params.guildId, roleId: params.roleId, body })),
  }),
  route({
    method: "DELETE",
    path: "/guilds/:guildId/roles/:roleId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await deleteRole(ctx, params);
      return noContent();
    },
  }),
];
