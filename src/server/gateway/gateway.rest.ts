import type { APIGatewayInfo } from "discord-api-types/v10";
import { env } from "~/env.ts";
import { ok, route } from "~/server/rest/route.ts";
import { gatewayBotInfo } from "./gateway-info.ts";
import { gatewayUrl } from "./gateway-limits.ts";

export const gatewayRoutes = [
  route({
    method: "GET",
    path: "/gateway",
    auth: "none",
    open: { to: "anyone", why: "where to connect is public" },
    handler: () => Promise.resolve(ok({ url: gatewayUrl(env().PUBLIC_BASE_URL) } satisfies APIGatewayInfo)),
  }),
  route({
    method: "GET",
    path: "/gateway/bot",
    auth: "bot",
    open: { to: "outsider", why: "the caller's own bot" },
    handler: async ({ ctx }) => ok(await gatewayBotInfo(ctx, env().PUBLIC_BASE_URL, new Date())),
  }),
];
