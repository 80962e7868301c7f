// Shared setup for channel following and crossposting tests: a guild with an announcement
// channel and an icon, and guilds whose owners follow it into their own text channels.
import { ChannelType } from "discord-api-types/v10";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { addMember } from "./factories.ts";
import { PNG } from "./member-kit.ts";
import { threadKit } from "./thread-kit.ts";
import type { TestApp } from "./test-app.ts";

type Api = ReturnType<TestApp["as"]>;

export function followKit(app: TestApp) {
  const kit = threadKit(app);

  /** A guild with an icon and an announcement channel named "news", owned by a fresh bot. */
  async function publisher() {
    const base = await kit.setup();
    const patched = await base.api.patch(`/guilds/${base.guild.id}`, { icon: PNG });
    if (patched.status !== 200) throw new Error(`icon not set: ${patched.status} ${JSON.stringify(patched.body)}`);
    const news = await kit.addChannel(base.guild.id, ChannelType.GuildAnnouncement, { name: "news" });
    return { ...base, news, icon: (patched.body as { icon: string }).icon, name: (patched.body as { name: string }).name };
  }

  /**
   * Another guild whose owner bot is also a plain member of `sourceGuildId`, so it can see the
   * announcement channel, and reads message content (MESSAGE_CONTENT) to check the copies.
   */
  async function follower(sourceGuildId: string) {
    const base = await kit.setup();
    await addMember(app.db, sourceGuildId, base.owner.user.id);
    await setApprovedIntents({ db: app.db, actor: null }, base.owner.application.id, ["MESSAGE_CONTENT"], true);
    return base;
  }

  /** POST /channels/{source}/followers into `targetId`. */
  function follow(api: Api, sourceId: string, targetId: string, reason?: string) {
    return api.post(`/channels/${sourceId}/followers`, { webhook_channel_id: targetId }, reason ? { headers: { "X-Audit-Log-Reason": reason } } : {});
  }

  return { ...kit, publisher, follower, follow };
}
