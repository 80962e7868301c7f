import { ChannelType } from "discord-api-types/v10";
import type { ComponentType } from "react";
import { IconFolder, IconHash, IconMessages, IconPhoto, IconSpeakerphone, IconVolume } from "~/components/icons.tsx";
import { GUILD_CHANNEL_TYPES } from "~/server/channels/channel.schema.ts";

type TypeInfo = { label: string; description: string; icon: ComponentType<{ size?: number }> };

const INFO: Record<(typeof GUILD_CHANNEL_TYPES)[number], TypeInfo> = {
  [ChannelType.GuildText]: { label: "Text", description: "Messages, images and links", icon: IconHash },
  [ChannelType.GuildVoice]: { label: "Voice", description: "Talk, video and screen share", icon: IconVolume },
  [ChannelType.GuildCategory]: { label: "Category", description: "Groups channels together", icon: IconFolder },
  [ChannelType.GuildAnnouncement]: { label: "Announcement", description: "Updates other guilds can follow", icon: IconSpeakerphone },
  [ChannelType.GuildStageVoice]: { label: "Stage", description: "Talks with an audience", icon: IconVolume },
  [ChannelType.GuildForum]: { label: "Forum", description: "Organised threads of posts", icon: IconMessages },
  [ChannelType.GuildMedia]: { label: "Media", description: "Image and video posts", icon: IconPhoto },
};

export function channelTypeInfo(type: number): TypeInfo {
  return INFO[type as keyof typeof INFO] ?? { label: "Channel", description: "", icon: IconHash };
}

export const CHANNEL_TYPE_OPTIONS = GUILD_CHANNEL_TYPES.map((type) => ({ value: String(type), label: `${INFO[type].label}: ${INFO[type].description}` }));

export const SLOWMODE_OPTIONS = [
  { value: "0", label: "Off" },
  { value: "5", label: "5 seconds" },
  { value: "10", label: "10 seconds" },
  { value: "30", label: "30 seconds" },
  { value: "60", label: "1 minute" },
  { value: "300", label: "5 minutes" },
  { value: "900", label: "15 minutes" },
  { value: "3600", label: "1 hour" },
  { value: "21600", label: "6 hours" },
];
