// The dashboard's Direct messages page: a person's DMs with bots, read and answered through the
// same services REST uses.
import type { ServiceContext } from "~/server/context.ts";
import { listMessages, sendMessage } from "~/server/messages/message.service.ts";
import type { MessageObject } from "~/server/messages/message.dto.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import type { DmChannelObject } from "./dm-channel.dto.ts";
import { dmDenialFor, listOwnDms } from "./dm.service.ts";

/** Messages a conversation shows at once, the newest. */
const DM_PAGE_SIZE = 50;

export type DashboardDm = DmChannelObject & {
  /** Why the user cannot write here now (dm-rules.ts); null when they can. */
  sendBlocked: string | null;
};

/** The user's DMs, most recently active first, each with whether they may answer in it. */
export async function listDashboardDms(ctx: ServiceContext): Promise<DashboardDm[]> {
  const dms = await listOwnDms(ctx);
  return Promise.all(dms.map(async (dm) => ({ ...dm, sendBlocked: reasonOf(await dmDenialFor(ctx.db, ctx.actor.userId, dm.recipients[0]!.id)) })));
}

/** One DM's newest messages, oldest first as a conversation reads; `before` pages back. */
export async function readDashboardDm(ctx: ServiceContext, input: { channelId: string; before?: string | null }): Promise<MessageObject[]> {
  const page = await listMessages(ctx, { channelId: input.channelId, query: { limit: DM_PAGE_SIZE, ...(input.before && { before: input.before }) } });
  return page.reverse();
}

/** The user's answer in a DM: sendMessage's rules, 50007 included. */
export async function sendDashboardDm(ctx: ServiceContext, input: { channelId: string; content: string }): Promise<MessageObject> {
  return sendMessage(ctx, { channelId: input.channelId, body: { content: input.content }, files: [] });
}
