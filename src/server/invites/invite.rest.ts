import { noContent, ok, route } from "~/server/rest/route.ts";
import { acceptInvite } from "./accept-invite.service.ts";
import {
  TARGET_USERS_BODY_MAX_BYTES,
  ZInviteCreateBodySchema,
  ZInviteGetQuerySchema,
  ZTargetUserIdsBodySchema,
  ZTargetUsersFormSchema,
  ZVanityBodySchema,
} from "./invite.schema.ts";
import { createInvite, deleteInvite, getInvite, listChannelInvites, listGuildInvites } from "./invite.service.ts";
import { getVanityUrl, setVanityUrl } from "./vanity.service.ts";
import { editTargetUsers, getTargetUsersCsv, getTargetUsersJobStatus, uploadTargetUsers } from "./target-users.service.ts";

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
    open: { to: "anyone", why: "the code is what shows the invite" },
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
    open: { to: "outsider", why: "the invite admits whoever holds its code" },
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
  route({
    method: "GET",
    path: "/invites/:code/target-users",
    auth: "bot",
    handler: async ({ ctx, params }) => ({
      status: 200,
      file: await getTargetUsersCsv(ctx, params),
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${params.code}-target-users.csv"` },
    }),
  }),
  route({
    method: "PUT",
    path: "/invites/:code/target-users",
    auth: "bot",
    form: true,
    maxBodyBytes: TARGET_USERS_BODY_MAX_BYTES,
    body: ZTargetUsersFormSchema,
    handler: async ({ ctx, params, body }) => {
      await uploadTargetUsers(ctx, { code: params.code, file: body.target_users_file });
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: "/invites/:code/target-users/job-status",
    auth: "bot",
    handler: async ({ ctx, params }) => ok(await getTargetUsersJobStatus(ctx, params)),
  }),
  route({
    method: "POST",
    path: "/invites/:code/target-users/bulk-add",
    auth: "bot",
    body: ZTargetUserIdsBodySchema,
    handler: async ({ ctx, params, body }) => {
      await editTargetUsers(ctx, { code: params.code, userIds: body.user_ids, add: true });
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/invites/:code/target-users/bulk-delete",
    auth: "bot",
    body: ZTargetUserIdsBodySchema,
    handler: async ({ ctx, params, body }) => {
      await editTargetUsers(ctx, { code: params.code, userIds: body.user_ids, add: false });
      return noContent();
    },
  }),
  route({
    method: "PUT",
    path: "/invites/:code/target-users/:userId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await editTargetUsers(ctx, { code: params.code, userIds: [params.userId], add: true });
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: "/invites/:code/target-users/:userId",
    auth: "bot",
    handler: async ({ ctx, params }) => {
      await editTargetUsers(ctx, { code: params.code, userIds: [params.userId], add: false });
      return noContent();
    },
  }),
];
