import type { ComponentType } from "react";
import {
  IconBan,
  IconDoorEnter,
  IconHash,
  IconHistory,
  IconLink,
  IconMoodSmile,
  IconPlug,
  IconSettings,
  IconShield,
  IconShieldPause,
  IconSignpost,
  IconUsers,
  IconWidget,
} from "~/components/icons.tsx";

export type GuildSection = {
  /** Path below `/guilds/{id}`; "" is the guild's landing page. */
  segment: string;
  label: string;
  icon: ComponentType<{ size?: number }>;
};

/** The guild navbar, in order. A new section is a row here plus its page folder. */
export const GUILD_SECTIONS: readonly GuildSection[] = [
  { segment: "", label: "Settings", icon: IconSettings },
  { segment: "roles", label: "Roles", icon: IconShield },
  { segment: "channels", label: "Channels", icon: IconHash },
  { segment: "emojis", label: "Emoji & Stickers", icon: IconMoodSmile },
  { segment: "members", label: "Members", icon: IconUsers },
  { segment: "bans", label: "Bans", icon: IconBan },
  { segment: "invites", label: "Invites", icon: IconLink },
  { segment: "onboarding", label: "Onboarding", icon: IconSignpost },
  { segment: "welcome-screen", label: "Welcome screen", icon: IconDoorEnter },
  { segment: "widget", label: "Widget", icon: IconWidget },
  { segment: "safety", label: "Safety", icon: IconShieldPause },
  { segment: "integrations", label: "Integrations", icon: IconPlug },
  { segment: "audit-log", label: "Audit log", icon: IconHistory },
];

export function guildSectionHref(guildId: string, segment: string): string {
  return segment ? `/guilds/${guildId}/${segment}` : `/guilds/${guildId}`;
}
