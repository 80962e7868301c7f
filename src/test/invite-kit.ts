// Shared setup for the invite domain's integration tests: a guild owned by a bot with its
// first text channel, invites created over REST, and invite rows moved in time.
import type { Prisma } from "~/generated/prisma/client.ts";
import { writeGuildState } from "./factories.ts";
import { memberKit } from "./member-kit.ts";
import type { TestApp } from "./test-app.ts";

export const UNKNOWN_INVITE = { code: 10006, message: "Unknown Invite" };
export const HOUR_MS = 60 * 60 * 1000;

type Api = ReturnType<TestApp["as"]>;

export function inviteKit(app: TestApp) {
  const kit = memberKit(app);

  /** A guild owned by a fresh bot, its first text channel, and an invite maker. */
  function setup() {
    return kit.setupWithChannels();
  }

  /** POST /channels/{id}/invites, with an audit reason when given. */
  function create(api: Api, channelId: string, body: Record<string, unknown> = {}, reason?: string) {
    return api.post(`/channels/${channelId}/invites`, body, reason ? { headers: { "X-Audit-Log-Reason": reason } } : {});
  }

  /** Creates an invite and answers its code (fails the test unless it was created). */
  async function code(api: Api, channelId: string, body: Record<string, unknown> = {}): Promise<string> {
    const res = await create(api, channelId, { unique: true, ...body });
    if (res.status !== 200) throw new Error(`invite not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.code as string;
  }

  /** Changes an invite row directly (the Invite table is under the event guard). */
  async function updateInvite(guildId: string, inviteCode: string, data: Prisma.InviteUpdateInput) {
    await writeGuildState(app.db, guildId, (tx) => tx.invite.update({ where: { code: inviteCode }, data }));
  }

  /** Moves an invite's creation back by `ms`, its expiry with it. */
  async function backdate(guildId: string, inviteCode: string, ms: number) {
    const row = await app.db.invite.findUniqueOrThrow({ where: { code: inviteCode } });
    await updateInvite(guildId, inviteCode, {
      createdAt: new Date(row.createdAt.getTime() - ms),
      expiresAt: row.expiresAt && new Date(row.expiresAt.getTime() - ms),
    });
  }

  async function updateGuild(guildId: string, data: Prisma.GuildUpdateInput) {
    await writeGuildState(app.db, guildId, (tx) => tx.guild.update({ where: { id: guildId }, data }));
  }

  return { ...kit, setup, create, code, updateInvite, backdate, updateGuild };
}
