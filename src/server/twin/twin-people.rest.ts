import { created, noContent, ok } from "~/server/rest/route.ts";
import { twinRoute } from "./twin-route.ts";
import {
  ZTwinInviteAcceptBodySchema,
  ZTwinMessageBodySchema,
  ZTwinPresenceBodySchema,
  ZTwinUserBodySchema,
  ZTwinVoiceStateBodySchema,
} from "./twin-people.schema.ts";
import { acceptInviteAsPerson, createPerson, joinAsPerson, leaveAsPerson, postAsPerson, setPresenceAsPerson, setVoiceAsPerson } from "./twin-people.service.ts";

/** Acting as people: the twin makes users and acts as them, so bots hear what people do. */
export const peopleRoutes = [
  twinRoute({
    method: "POST",
    path: "/users",
    body: ZTwinUserBodySchema,
    handler: async ({ ctx, body }) => created(await createPerson(ctx.runtime.db, body)),
  }),
  twinRoute({
    method: "PUT",
    path: "/guilds/:guildId/members/:userId",
    handler: async ({ ctx, params }) => {
      const member = await joinAsPerson(ctx.runtime.db, params);
      return member ? created(member) : noContent();
    },
  }),
  twinRoute({
    method: "DELETE",
    path: "/guilds/:guildId/members/:userId",
    handler: async ({ ctx, params }) => {
      await leaveAsPerson(ctx.runtime.db, params);
      return noContent();
    },
  }),
  twinRoute({
    method: "POST",
    path: "/invites/:code/accept",
    body: ZTwinInviteAcceptBodySchema,
    handler: async ({ ctx, params, body }) => ok(await acceptInviteAsPerson(ctx.runtime.db, { code: params.code, userId: body.user_id })),
  }),
  twinRoute({
    method: "POST",
    path: "/channels/:channelId/messages",
    body: ZTwinMessageBodySchema,
    handler: async ({ ctx, params, body }) => ok(await postAsPerson(ctx.runtime.db, { channelId: params.channelId, body })),
  }),
  twinRoute({
    method: "PUT",
    path: "/guilds/:guildId/voice-states/:userId",
    body: ZTwinVoiceStateBodySchema,
    handler: async ({ ctx, params, body }) => {
      const state = await setVoiceAsPerson(ctx.runtime.db, { ...params, body });
      return state ? ok(state) : noContent();
    },
  }),
  twinRoute({
    method: "PUT",
    path: "/users/:userId/presence",
    body: ZTwinPresenceBodySchema,
    handler: async ({ ctx, params, body }) => ok(await setPresenceAsPerson(ctx.runtime.db, { userId: params.userId, body })),
  }),
];
