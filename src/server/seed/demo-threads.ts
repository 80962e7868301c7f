import { ChannelType } from "discord-api-types/v10";
import { dashboardActor } from "~/server/auth/actor.ts";
import { setVoiceChannelStatus } from "~/server/channels/voice-status.service.ts";
import type { ServiceContext } from "~/server/context.ts";
import { IS_A_THREAD } from "~/server/threads/thread.dto.ts";
import { joinThread } from "~/server/threads/thread-members.service.ts";
import { createThread, modifyThread } from "~/server/threads/thread.service.ts";

/** Threads under #general, #moderators and #announcements (one archived, one locked) and a voice status; once. */
export async function seedThreads(ctx: ServiceContext, guildId: string, friendId: string): Promise<string[]> {
  const { db } = ctx;
  if ((await db.channel.count({ where: { guildId, type: IS_A_THREAD } })) > 0) return [];
  const channel = (name: string, type: ChannelType) => db.channel.findFirstOrThrow({ where: { guildId, name, type }, select: { id: true } });
  const general = await channel("general", ChannelType.GuildText);
  const moderators = await channel("moderators", ChannelType.GuildText);
  const announcements = await channel("announcements", ChannelType.GuildAnnouncement);

  const planning = await createThread(ctx, { channelId: general.id, body: { name: "Weekly planning", type: ChannelType.PublicThread } });
  await joinThread({ db, actor: dashboardActor(friendId) }, { channelId: planning.id });
  const ideas = await createThread(ctx, { channelId: general.id, body: { name: "Old event ideas", type: ChannelType.PublicThread } });
  await modifyThread(ctx, { channelId: ideas.id, body: { archived: true, locked: true } });
  await createThread(ctx, { channelId: moderators.id, body: { name: "Ban appeals", type: ChannelType.PrivateThread, invitable: false } });
  await createThread(ctx, { channelId: announcements.id, body: { name: "Release 1.2 questions" } });

  const lounge = await channel("General", ChannelType.GuildVoice);
  await setVoiceChannelStatus(ctx, { channelId: lounge.id, body: { status: "Hanging out, come say hi" } });
  return ["4 threads", "a voice status"];
}
