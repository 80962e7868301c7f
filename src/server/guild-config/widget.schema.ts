import { z } from "zod";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** Online members a widget lists at most; presence_count still counts them all (spec 8). */
export const WIDGET_MEMBERS_MAX = 100;

/** The widget image styles (spec 4.2), shield first: it is the default. */
export const WIDGET_STYLES = ["shield", "banner1", "banner2", "banner3", "banner4"] as const;
export type WidgetStyle = (typeof WIDGET_STYLES)[number];

/** Each style's size in pixels, the platform's: badges and banners embedded in pages keep their boxes. */
export const WIDGET_STYLE_SIZES: Record<WidgetStyle, { width: number; height: number }> = {
  shield: { width: 119, height: 20 },
  banner1: { width: 300, height: 160 },
  banner2: { width: 320, height: 76 },
  banner3: { width: 320, height: 140 },
  banner4: { width: 320, height: 270 },
};

/** PATCH /guilds/{guild.id}/widget: either field; null channel_id means no invite. */
export const ZWidgetSettingsBodySchema = z.object({
  enabled: z.boolean().nullable().optional(),
  channel_id: ZSnowflakeSchema.nullable().optional(),
});
export type TWidgetSettingsBody = z.output<typeof ZWidgetSettingsBodySchema>;

/** GET /guilds/{guild.id}/widget.png */
export const ZWidgetImageQuerySchema = z.object({ style: z.enum(WIDGET_STYLES).default("shield") });
