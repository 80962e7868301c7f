import { z } from "zod";
import type { ServiceContext } from "~/server/context.ts";
import { ZGuildIdInputSchema } from "~/server/guilds/guild.schema.ts";
import { createTRPCRouter, protectedProcedure } from "~/server/trpc/init.ts";
import { ZSnowflake } from "~/server/validation/fields.ts";
import { banUser, bulkBan, listBans, unbanUser } from "./ban.service.ts";
import { listMembersForDashboard, memberDetails, moderationRights } from "./member-dashboard.service.ts";
import {
  AUDIT_REASON_MAX,
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
export const MEMBER_PAGE_MAX = 100;

const ZMemberInput = ZGuildIdInputSchema.extend({ userId: ZSnowflake });
/** The reason a moderator gives, recorded on the audit log entry as the REST header is. */
const ZReason = { reason: z.string().trim().max(AUDIT_REASON_MAX).optional() };
const withReason = <C extends ServiceContext>(ctx: C, reason: string | undefined): C => ({ ...ctx, auditReason: reason || null });
const ZDeleteSeconds = z.number().int().min(0).max(DELETE_MESSAGE_SECONDS_MAX).default(0);

export const memberRouter = createTRPCRouter({
  rights: protectedProcedure.input(ZGuildIdInputSchema).query(({ ctx, input }) => moderationRights(ctx, input)),
  list: protectedProcedure
    .input(
      ZGuildIdInputSchema.extend({
        after: ZSnowflake.default("0"),
        limit: z.number().int().min(1).max(MEMBER_PAGE_MAX).default(50),
        prefix: z.string().trim().max(MEMBER_SEARCH_QUERY_MAX).optional(),
        roleId: ZSnowflake.optional(),
      }),
    )
    .query(({ ctx, input }) => listMembersForDashboard(ctx, { ...input, prefix: input.prefix || undefined })),
  get: protectedProcedure.input(ZMemberInput).query(({ ctx, input }) => memberDetails(ctx, input)),
  modify: protectedProcedure
    .input(ZMemberInput.extend({ body: ZMemberModifyBodySchema, ...ZReason }))
    .mutation(({ ctx, input }) => modifyMember(withReason(ctx, input.reason), input)),
  kick: protectedProcedure.input(ZMemberInput.extend(ZReason)).mutation(({ ctx, input }) => kickMember(withReason(ctx, input.reason), input)),
  ban: protectedProcedure
    .input(ZMemberInput.extend({ deleteMessageSeconds: ZDeleteSeconds, ...ZReason }))
    .mutation(({ ctx, input }) => banUser(withReason(ctx, input.reason), input)),
  bulkBan: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ body: ZBulkBanBodySchema, ...ZReason }))
    .mutation(({ ctx, input }) => bulkBan(withReason(ctx, input.reason), input)),
  bans: protectedProcedure
    .input(
      ZGuildIdInputSchema.extend({
        after: ZSnowflake.optional(),
        limit: z.number().int().min(1).max(BAN_LIST_LIMIT_MAX).default(50),
        prefix: z.string().trim().max(MEMBER_SEARCH_QUERY_MAX).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const bans = await listBans(ctx, { guildId: input.guildId, query: { limit: input.limit + 1, after: input.after, prefix: input.prefix || undefined } });
      const shown = bans.slice(0, input.limit);
      return { bans: shown, nextAfter: bans.length > input.limit ? (shown.at(-1)?.user.id ?? null) : null };
    }),
  unban: protectedProcedure.input(ZMemberInput.extend(ZReason)).mutation(({ ctx, input }) => unbanUser(withReason(ctx, input.reason), input)),
  prunePreview: protectedProcedure.input(ZGuildIdInputSchema.extend({ prune: ZPruneInputSchema })).query(({ ctx, input }) => previewPrune(ctx, input)),
  prune: protectedProcedure
    .input(ZGuildIdInputSchema.extend({ prune: ZPruneInputSchema, ...ZReason }))
    .mutation(({ ctx, input }) => prune(withReason(ctx, input.reason), { ...input, computeCount: true })),
  setScreening: protectedProcedure.input(ZGuildIdInputSchema.extend({ enabled: z.boolean() })).mutation(({ ctx, input }) => setScreening(ctx, input)),
  completeScreening: protectedProcedure.input(ZGuildIdInputSchema).mutation(({ ctx, input }) => completeScreening(ctx, input)),
});
