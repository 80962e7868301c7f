import { z } from "zod";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { withAuditReason, ZAuditReasonInputSchema } from "~/server/trpc/audit-reason.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { banUser, bulkBan, unbanUser } from "./ban.service.ts";
import { listBansForDashboard, listMembersForDashboard, memberDetails, moderationRights } from "./member-dashboard.service.ts";
import {
  BAN_LIST_LIMIT_MAX,
  MEMBER_SEARCH_QUERY_MAX,
  ZBulkBanBodySchema,
  ZMemberModifyBodySchema,
  ZPruneInputSchema,
  DELETE_MESSAGE_SECONDS_MAX,
} from "./member.schema.ts";
import { completeScreening, kickMember } from "./member.service.ts";
import { modifyMember } from "./modify-member.service.ts";
import { previewPrune, prune } from "./prune.service.ts";
import { setScreening } from "./screening.service.ts";

/** Dashboard pages list at most this many members at once. */
const MEMBER_PAGE_MAX = 100;

const ZMemberInputSchema = ZGuildIdInputSchema.extend({ userId: ZSnowflakeSchema });
const ZDeleteSecondsSchema = z.number().int().min(0).max(DELETE_MESSAGE_SECONDS_MAX).default(0);

export const memberRouter = createTRPCRouter({
  rights: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => moderationRights(ctx, input)),
  list: protectedProcedure
    .input(
      ZGuildIdInputSchema.extend({
        after: ZSnowflakeSchema.default("0"),
        limit: z.number().int().min(1).max(MEMBER_PAGE_MAX).default(50),
        /** Words of a username, global name or nickname (any part, any case), or an id. */
        search: z.string().trim().max(MEMBER_SEARCH_QUERY_MAX).optional(),
        roleId: ZSnowflakeSchema.optional(),
      }),
    )
    .query(({ ctx, input }) => listMembersForDashboard(ctx, { ...input, search: input.search || undefined })),
  get: protectedProcedure.input(ZMemberInputSchema).query(({ ctx, input }) => memberDetails(ctx, input)),
  modify: protectedProcedure
    .input(ZMemberInputSchema.extend({ body: ZMemberModifyBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => modifyMember(withAuditReason(ctx, input.reason), input)),
  kick: protectedProcedure
    .input(ZMemberInputSchema.extend(ZAuditReasonInputSchema))
    .mutation(({ ctx, input }) => kickMember(withAuditReason(ctx, input.reason), input)),
  ban: protectedProcedure
    .input(ZMemberInputSchema.extend({ deleteMessageSeconds: ZDeleteSecondsSchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => banUser(withAuditReason(ctx, input.reason), input)),
  bulkBan: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ body: ZBulkBanBodySchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => bulkBan(withAuditReason(ctx, input.reason), input)),
  bans: protectedProcedure
    .input(
      ZGuildIdInputSchema.extend({
        after: ZSnowflakeSchema.optional(),
        limit: z.number().int().min(1).max(BAN_LIST_LIMIT_MAX).default(50),
        /** Words of a username, global name or nickname (any part, any case), or an id. */
        search: z.string().trim().max(MEMBER_SEARCH_QUERY_MAX).optional(),
      }),
    )
    .query(({ ctx, input }) => listBansForDashboard(ctx, { ...input, search: input.search || undefined })),
  unban: protectedProcedure
    .input(ZMemberInputSchema.extend(ZAuditReasonInputSchema))
    .mutation(({ ctx, input }) => unbanUser(withAuditReason(ctx, input.reason), input)),
  prunePreview: protectedProcedure.input(ZGuildIdInputSchema.extend({ prune: ZPruneInputSchema })).query(({ ctx, input }) => previewPrune(ctx, input)),
  prune: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ prune: ZPruneInputSchema, ...ZAuditReasonInputSchema }))
    .mutation(({ ctx, input }) => prune(withAuditReason(ctx, input.reason), { ...input, computeCount: true })),
  setScreening: protectedProcedure.input(ZGuildIdInputSchema.extend({ enabled: z.boolean() })).mutation(({ ctx, input }) => setScreening(ctx, input)),
  completeScreening: protectedProcedure.input(ZGuildIdInputSchema).mutation(({ ctx, input }) => completeScreening(ctx, input)),
});
