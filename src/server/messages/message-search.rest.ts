import { accepted, ok, route } from "~/server/rest/route.ts";
import { ZSearchGuildMessagesQuerySchema } from "./message-search.schema.ts";
import { isSearchIndexPending, searchGuildMessages } from "./message-search.service.ts";

export const messageSearchRoutes = [
  route({
    method: "GET",
    path: "/guilds/:guildId/messages/search",
    auth: "bot",
    open: { to: "member", why: "finds only messages in channels the member may read" },
    query: ZSearchGuildMessagesQuerySchema,
    handler: async ({ ctx, params, query }) => {
      const answer = await searchGuildMessages(ctx, { guildId: params.guildId, query });
      // The platform answers 202 with the 110000 body while the guild's index is built.
      return isSearchIndexPending(answer) ? accepted(answer) : ok(answer);
    },
  }),
];
