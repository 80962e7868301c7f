import { z } from "zod";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure, publicProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { acceptInvite } from "./accept-invite.service.ts";
import { TARGET_USERS_FILE_MAX_BYTES, ZInviteCreateBodySchema, ZVanityBodySchema } from "./invite.schema.ts";
import { createInvite, deleteInvite, getInvite, listGuildInvites } from "./invite.service.ts";
import { getTargetUsersCsv, getTargetUsersJobStatus, uploadTargetUsers } from "./target-users.service.ts";
import { getVanityUrl, setVanityUrl } from "./vanity.service.ts";

/** Codes are 10 random characters or a vanity code (2 to 32); anything longer is never an invite. */
const ZCodeSchema = z.string().trim().min(1).max(64);

export const inviteRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listGuildInvites(ctx, input)),
  create: protectedProcedure
    .input(z.object({ channelId: ZSnowflakeSchema, body: ZInviteCreateBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => createInvite(withAuditReason(ctx, input.reason), input)),
  revoke: protectedProcedure
    .input(z.object({ code: ZCodeSchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => deleteInvite(withAuditReason(ctx, input.reason), input)),
  /** The public invite page's data: anyone may look an invite up, as GET /invites/{code} allows. */
  get: publicProcedure
    .input(z.object({ code: ZCodeSchema, withCounts: z.boolean().default(true) }))
    .query(({ ctx, input }) => getInvite(ctx.db, { code: input.code, query: { with_counts: input.withCounts } })),
  accept: protectedProcedure.input(z.object({ code: ZCodeSchema })).mutation(({ ctx, input }) => acceptInvite(ctx, input)),
  targetUsersStatus: protectedProcedure.input(z.object({ code: ZCodeSchema })).query(({ ctx, input }) => getTargetUsersJobStatus(ctx, input)),
  targetUsersCsv: protectedProcedure.input(z.object({ code: ZCodeSchema })).query(({ ctx, input }) => getTargetUsersCsv(ctx, input)),
  /** PUT /invites/{code}/target-users from the dashboard; refused files answer each line's problem in `data.lineErrors`. */
  uploadTargetUsers: protectedProcedure
    .input(z.object({ code: ZCodeSchema, csv: z.string().max(TARGET_USERS_FILE_MAX_BYTES) }))
    .mutation(({ ctx, input }) => uploadTargetUsers(ctx, { code: input.code, file: Buffer.from(input.csv) })),
  vanity: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => getVanityUrl(ctx, input)),
  setVanity: protectedProcedure
    .input(ZVanityBodySchema.extend({ guildId: ZSnowflakeSchema }))
    .mutation(({ ctx, input }) => setVanityUrl(ctx, { guildId: input.guildId, code: input.code })),
});
