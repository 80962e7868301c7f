import { z } from "zod";
import type { ServiceContext } from "~/server/context.ts";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { AUDIT_REASON_MAX } from "~/server/members/member.schema.ts";
import { createTRPCRouter, protectedProcedure, publicProcedure } from "~/server/trpc/init.ts";
import { ZSnowflake } from "~/server/validation/fields.ts";
import { acceptInvite } from "./accept-invite.service.ts";
import { ZInviteCreateBodySchema, ZVanityBodySchema } from "./invite.schema.ts";
import { createInvite, deleteInvite, getInvite, listGuildInvites } from "./invite.service.ts";
import { getTargetUsersCsv, getTargetUsersJobStatus, uploadTargetUsers } from "./target-users.service.ts";
import { getVanityUrl, setVanityUrl } from "./vanity.service.ts";

/** Codes are 10 random characters or a vanity code (2 to 32); anything longer is never an invite. */
const ZCode = z.string().trim().min(1).max(64);
/** The reason a moderator gives, recorded on the audit log entry as the REST header is. */
const ZReason = { reason: z.string().trim().max(AUDIT_REASON_MAX).optional() };
/** A target-users file as the browser read it: its text, at most 16 MiB. */
const TARGET_USERS_CSV_MAX = 16 * 1024 * 1024;
const withReason = <C extends ServiceContext>(ctx: C, reason: string | undefined): C => ({ ...ctx, auditReason: reason || null });

export const inviteRouter = createTRPCRouter({
  list: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => listGuildInvites(ctx, input)),
  create: protectedProcedure
    .input(z.object({ channelId: ZSnowflake, body: ZInviteCreateBodySchema, ...ZReason }))
    .mutation(({ ctx, input }) => createInvite(withReason(ctx, input.reason), input)),
  revoke: protectedProcedure.input(z.object({ code: ZCode, ...ZReason })).mutation(({ ctx, input }) => deleteInvite(withReason(ctx, input.reason), input)),
  /** The public invite page's data: anyone may look an invite up, as GET /invites/{code} allows. */
  get: publicProcedure
    .input(z.object({ code: ZCode, withCounts: z.boolean().default(true) }))
    .query(({ ctx, input }) => getInvite(ctx.db, { code: input.code, query: { with_counts: input.withCounts } })),
  accept: protectedProcedure.input(z.object({ code: ZCode })).mutation(({ ctx, input }) => acceptInvite(ctx, input)),
  targetUsersStatus: protectedProcedure.input(z.object({ code: ZCode })).query(({ ctx, input }) => getTargetUsersJobStatus(ctx, input)),
  targetUsersCsv: protectedProcedure.input(z.object({ code: ZCode })).query(({ ctx, input }) => getTargetUsersCsv(ctx, input)),
  /** PUT /invites/{code}/target-users from the dashboard; refused files answer each line's problem in `data.lineErrors`. */
  uploadTargetUsers: protectedProcedure
    .input(z.object({ code: ZCode, csv: z.string().max(TARGET_USERS_CSV_MAX) }))
    .mutation(({ ctx, input }) => uploadTargetUsers(ctx, { code: input.code, file: Buffer.from(input.csv) })),
  vanity: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => getVanityUrl(ctx, input)),
  setVanity: protectedProcedure
    .input(ZVanityBodySchema.extend({ guildId: ZSnowflake }))
    .mutation(({ ctx, input }) => setVanityUrl(ctx, { guildId: input.guildId, code: input.code })),
});
