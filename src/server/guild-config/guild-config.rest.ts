import { ok, route } from "~/server/rest/route.ts";
import { ZIncidentActionsBodySchema, ZWelcomeScreenBodySchema } from "./guild-config.schema.ts";
import { setIncidentActions } from "./incident-actions.service.ts";
import { ZOnboardingBodySchema } from "./onboarding.schema.ts";
import { getOnboarding, modifyOnboarding } from "./onboarding.service.ts";
import { listGuildVoiceRegions, listVoiceRegions } from "./voice-regions.ts";
import { getWelcomeScreen, modifyWelcomeScreen } from "./welcome-screen.service.ts";
import { ZWidgetImageQuerySchema, ZWidgetSettingsBodySchema } from "./widget.schema.ts";
import { getWidget, getWidgetImage, getWidgetSettings, modifyWidgetSettings } from "./widget.service.ts";

export const guildConfigRoutes = [
  route({
    method: "GET",
    path: "/voice/regions",
    auth: "any",
    open: { to: "token", why: "the same list for every caller" },
    handler: () => Promise.resolve(ok(listVoiceRegions())),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/regions",
    auth: "bot",
    open: { to: "member", why: "any member reads the guild's regions" },
    handler: async ({ ctx, params }) => ok(await listGuildVoiceRegions(ctx, params)),
  }),
  route({
    method: "PUT",
    path: "/guilds/:guildId/incident-actions",
    auth: "bot",
    body: ZIncidentActionsBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await setIncidentActions(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/welcome-screen",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getWelcomeScreen(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/welcome-screen",
    auth: "bot",
    body: ZWelcomeScreenBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await modifyWelcomeScreen(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/onboarding",
    auth: "bot",
    open: { to: "member", why: "members read it to onboard" },
    handler: async ({ ctx, params }) => ok(await getOnboarding(ctx, params)),
  }),
  route({
    method: "PUT",
    path: "/guilds/:guildId/onboarding",
    auth: "bot",
    body: ZOnboardingBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await modifyOnboarding(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/widget",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getWidgetSettings(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: "/guilds/:guildId/widget",
    auth: "bot",
    body: ZWidgetSettingsBodySchema.default({}),
    handler: async ({ ctx, params, body }) => ok(await modifyWidgetSettings(ctx, { guildId: params.guildId, body })),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/widget.json",
    auth: "none",
    open: { to: "anyone", why: "an enabled widget is public" },
    handler: async ({ ctx, params }) => ok(await getWidget(ctx.db, params)),
  }),
  route({
    method: "GET",
    path: "/guilds/:guildId/widget.png",
    auth: "none",
    open: { to: "anyone", why: "no permission or authentication (spec 5)" },
    query: ZWidgetImageQuerySchema,
    handler: async ({ ctx, params, query }) => ({
      status: 200,
      file: await getWidgetImage(ctx.db, { guildId: params.guildId, style: query.style }),
      // Embedded on other sites: a minute is fresh enough for an online count.
      headers: { "content-type": "image/png", "cache-control": "public, max-age=60" },
    }),
  }),
];
