import { noContent, ok, route } from "~/server/rest/route.ts";
import { deleteGuildIntegration, listGuildIntegrations } from "./integration.service.ts";

export const integrationRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/integrations",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await listGuildIntegrations(ctx, params)),
  }),
  route({
    method: "DELETE",
    path: "/guilds/:guildId/integrations/:integrationId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await deleteGuildIntegration(ctx, params);
      return noContent();
    },
  }),
];
