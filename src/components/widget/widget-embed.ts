import { WIDGET_STYLE_SIZES, type WidgetStyle } from "~/server/guild-config/widget.schema.ts";

/** The styles' names in the dashboard. */
export const STYLE_LABELS: Record<WidgetStyle, string> = {
  shield: "Shield",
  banner1: "Banner 1",
  banner2: "Banner 2",
  banner3: "Banner 3",
  banner4: "Banner 4",
};

/** The widget image as the dashboard shows it; `version` changes after each save so the browser fetches it again. */
export function previewImageUrl(guildId: string, style: WidgetStyle, version: number): string {
  return `/api/v10/guilds/${guildId}/widget.png?style=${style}&v=${version}`;
}

/** The widget image's public address, as other sites embed it. */
function publicImageUrl(baseUrl: string, guildId: string, style: WidgetStyle): string {
  return `${baseUrl}/api/guilds/${guildId}/widget.png?style=${style}`;
}

/** The widget's JSON for developers' own widgets. */
export function publicJsonUrl(baseUrl: string, guildId: string): string {
  return `${baseUrl}/api/guilds/${guildId}/widget.json`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function escapeMarkdown(text: string): string {
  return text.replace(/[[\]\\]/g, (c) => `\\${c}`);
}

type Embed = { baseUrl: string; guildId: string; guildName: string; style: WidgetStyle; invite: string | null };

/** An image of the chosen style, linking to the widget's invite when there is one. */
export function htmlSnippet({ baseUrl, guildId, guildName, style, invite }: Embed): string {
  const { width, height } = WIDGET_STYLE_SIZES[style];
  const image = `<img src="${publicImageUrl(baseUrl, guildId, style)}" width="${width}" height="${height}" alt="${escapeHtml(guildName)}">`;
  return invite ? `<a href="${invite}">${image}</a>` : image;
}

/** The same for READMEs and forums. */
export function markdownSnippet({ baseUrl, guildId, guildName, style, invite }: Embed): string {
  const image = `![${escapeMarkdown(guildName)}](${publicImageUrl(baseUrl, guildId, style)})`;
  return invite ? `[${image}](${invite})` : image;
}
