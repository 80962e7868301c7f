import type { RouterOutputs } from "~/trpc/react.tsx";

export type WelcomeScreen = RouterOutputs["guildConfig"]["welcomeScreen"];
type WelcomeChannelValues = { channel_id: string; description: string; emoji_id: string | null; emoji_name: string };
export type WelcomeValues = { enabled: boolean; description: string; welcome_channels: WelcomeChannelValues[] };

export function toWelcomeValues(screen: WelcomeScreen, enabled: boolean): WelcomeValues {
  return {
    enabled,
    description: screen.description ?? "",
    welcome_channels: screen.welcome_channels.map((row) => ({ ...row, emoji_name: row.emoji_name ?? "" })),
  };
}

/** The PATCH body: the whole screen, as the form holds it. */
export function toWelcomeBody(values: WelcomeValues) {
  return {
    enabled: values.enabled,
    description: values.description.trim() || null,
    welcome_channels: values.welcome_channels.map((row) => ({
      channel_id: row.channel_id,
      description: row.description.trim(),
      emoji_id: row.emoji_id,
      emoji_name: row.emoji_name.trim() || null,
    })),
  };
}
