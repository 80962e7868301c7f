import { ButtonStyle, ComponentType } from "discord-api-types/v10";
import { z } from "zod";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";
import { zUrl } from "~/server/validation/url.ts";

/** Structure checks for message components: action rows of buttons and selects, and the v2 layout types. */
export const COMPONENT_LIMITS = {
  /** Top-level action rows of a message without IS_COMPONENTS_V2. */
  legacyRows: 5,
  /** Every component, nested ones included, of an IS_COMPONENTS_V2 message. */
  v2Total: 40,
  rowButtons: 5,
  customId: 100,
  label: 80,
  placeholder: 150,
  selectOptions: 25,
  textDisplay: 4000,
} as const;

const ZEmojiSchema = z.object({ id: ZSnowflakeSchema.nullish(), name: z.string().max(32).nullish(), animated: z.boolean().nullish() });
const ZCustomIdSchema = z.string().min(1).max(COMPONENT_LIMITS.customId);
const MEDIA_URL_MAX = 2048;
/** Thumbnails and gallery items: a web address or a file uploaded with the message. */
const ZUnfurledMediaSchema = z.object({ url: zUrl({ schemes: ["http", "https", "attachment"], max: MEDIA_URL_MAX }) });
/** A file component shows only a file uploaded with the message. */
const ZAttachedMediaSchema = z.object({ url: zUrl({ schemes: ["attachment"], max: MEDIA_URL_MAX }) });

const ZButtonSchema = z
  .object({
    type: z.literal(ComponentType.Button),
    id: z.number().int().optional(),
    style: z.enum(ButtonStyle),
    label: z.string().max(COMPONENT_LIMITS.label).nullish(),
    emoji: ZEmojiSchema.nullish(),
    custom_id: ZCustomIdSchema.nullish(),
    // The platform's own deep links (discord://) open in its client, as its builders accept.
    url: zUrl({ schemes: ["http", "https", "discord"], max: 512 }).nullish(),
    sku_id: ZSnowflakeSchema.nullish(),
    disabled: z.boolean().nullish(),
  })
  .superRefine((button, ctx) => {
    const needs = (field: "url" | "custom_id" | "sku_id", present: boolean) => {
      if (!present) ctx.addIssue({ code: "custom", path: [field], message: "This field is required", params: { code: "BASE_TYPE_REQUIRED" } });
    };
    if (button.style === ButtonStyle.Link) {
      needs("url", Boolean(button.url));
      if (button.custom_id)
        ctx.addIssue({
          code: "custom",
          path: ["custom_id"],
          message: "A link button cannot have a custom id.",
          params: { code: "COMPONENT_CUSTOM_ID_NOT_ALLOWED" },
        });
    } else if (button.style === ButtonStyle.Premium) {
      needs("sku_id", Boolean(button.sku_id));
    } else {
      needs("custom_id", Boolean(button.custom_id));
    }
  });

const selectBase = {
  id: z.number().int().optional(),
  custom_id: ZCustomIdSchema,
  placeholder: z.string().max(COMPONENT_LIMITS.placeholder).nullish(),
  min_values: z.number().int().min(0).max(25).nullish(),
  max_values: z.number().int().min(1).max(25).nullish(),
  disabled: z.boolean().nullish(),
};

const ZDefaultValueSchema = z.object({ id: ZSnowflakeSchema, type: z.enum(["user", "role", "channel"]) });

const ZStringSelectSchema = z.object({
  type: z.literal(ComponentType.StringSelect),
  ...selectBase,
  options: z
    .array(
      z.object({
        label: z.string().min(1).max(100),
        value: z.string().min(1).max(100),
        description: z.string().max(100).nullish(),
        emoji: ZEmojiSchema.nullish(),
        default: z.boolean().nullish(),
      }),
    )
    .min(1)
    .max(COMPONENT_LIMITS.selectOptions),
});

const ZAutoSelectSchema = z.object({
  type: z.union([z.literal(ComponentType.UserSelect), z.literal(ComponentType.RoleSelect), z.literal(ComponentType.MentionableSelect)]),
  ...selectBase,
  default_values: z.array(ZDefaultValueSchema).max(25).nullish(),
});

const ZChannelSelectSchema = z.object({
  type: z.literal(ComponentType.ChannelSelect),
  ...selectBase,
  channel_types: z.array(z.number().int()).nullish(),
  default_values: z.array(ZDefaultValueSchema).max(25).nullish(),
});

const ZSelectSchema = z.union([ZStringSelectSchema, ZAutoSelectSchema, ZChannelSelectSchema]);

const ZActionRowSchema = z
  .object({
    type: z.literal(ComponentType.ActionRow),
    id: z.number().int().optional(),
    components: z
      .array(z.union([ZButtonSchema, ZSelectSchema]))
      .min(1)
      .max(COMPONENT_LIMITS.rowButtons),
  })
  .superRefine((row, ctx) => {
    // A row holds up to five buttons or a single select menu.
    const selects = row.components.filter((c) => c.type !== ComponentType.Button).length;
    if (selects > 0 && row.components.length > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["components"],
        message: "A select menu must be alone in its row.",
        params: { code: "COMPONENT_LAYOUT_WIDTH_EXCEEDED" },
      });
    }
  });

const ZTextDisplaySchema = z.object({
  type: z.literal(ComponentType.TextDisplay),
  id: z.number().int().optional(),
  content: z.string().min(1).max(COMPONENT_LIMITS.textDisplay),
});

const ZThumbnailSchema = z.object({
  type: z.literal(ComponentType.Thumbnail),
  id: z.number().int().optional(),
  media: ZUnfurledMediaSchema,
  description: z.string().max(1024).nullish(),
  spoiler: z.boolean().nullish(),
});

const ZSectionSchema = z.object({
  type: z.literal(ComponentType.Section),
  id: z.number().int().optional(),
  components: z.array(ZTextDisplaySchema).min(1).max(3),
  accessory: z.union([ZButtonSchema, ZThumbnailSchema]),
});

const ZMediaGallerySchema = z.object({
  type: z.literal(ComponentType.MediaGallery),
  id: z.number().int().optional(),
  items: z
    .array(z.object({ media: ZUnfurledMediaSchema, description: z.string().max(1024).nullish(), spoiler: z.boolean().nullish() }))
    .min(1)
    .max(10),
});

const ZFileSchema = z.object({
  type: z.literal(ComponentType.File),
  id: z.number().int().optional(),
  file: ZAttachedMediaSchema,
  spoiler: z.boolean().nullish(),
});

const ZSeparatorSchema = z.object({
  type: z.literal(ComponentType.Separator),
  id: z.number().int().optional(),
  divider: z.boolean().nullish(),
  spacing: z.union([z.literal(1), z.literal(2)]).nullish(),
});

const ZContainerSchema = z.object({
  type: z.literal(ComponentType.Container),
  id: z.number().int().optional(),
  components: z.array(z.union([ZActionRowSchema, ZTextDisplaySchema, ZSectionSchema, ZMediaGallerySchema, ZSeparatorSchema, ZFileSchema])).min(1),
  accent_color: z.number().int().min(0).max(0xffffff).nullish(),
  spoiler: z.boolean().nullish(),
});

/** A top-level component of either kind of message; message-validation.ts checks which kinds the flags allow. */
const ZTopLevelComponentSchema = z.union([
  ZActionRowSchema,
  ZTextDisplaySchema,
  ZSectionSchema,
  ZMediaGallerySchema,
  ZSeparatorSchema,
  ZFileSchema,
  ZContainerSchema,
]);
export type TComponent = z.output<typeof ZTopLevelComponentSchema>;

export const ZComponentsSchema = z.array(ZTopLevelComponentSchema).max(COMPONENT_LIMITS.v2Total);

/** How many components a tree holds, nested ones included (the v2 limit counts them all). */
export function countComponents(components: readonly unknown[]): number {
  let count = 0;
  for (const component of components) {
    count += 1;
    const c = component as { components?: unknown[]; accessory?: unknown };
    if (Array.isArray(c.components)) count += countComponents(c.components);
    if (c.accessory) count += 1;
  }
  return count;
}
