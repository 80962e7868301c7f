"use client";

import { Box, Group, Radio, Stack, Text } from "@mantine/core";
import { SectionCard } from "~/components/section-card.tsx";
import { WIDGET_STYLE_SIZES, WIDGET_STYLES, type WidgetStyle } from "~/server/guild-config/widget.schema.ts";
import { previewImageUrl, STYLE_LABELS } from "./widget-embed.ts";

/** The five image styles side by side, as other sites show them; the chosen one is what the embed codes use. */
export function WidgetStylePicker({
  guildId,
  enabled,
  style,
  onStyleChange,
  version,
}: {
  guildId: string;
  enabled: boolean;
  style: WidgetStyle;
  onStyleChange: (style: WidgetStyle) => void;
  version: number;
}) {
  return (
    <SectionCard title="Images" id="widget-images" description="Live from widget.png. Pick the style the embed codes use.">
      <Radio.Group value={style} onChange={(value) => onStyleChange(value)} aria-label="Image style">
        <Group gap="md" align="flex-start">
          {WIDGET_STYLES.map((option) => {
            const { width, height } = WIDGET_STYLE_SIZES[option];
            return (
              <Radio.Card
                key={option}
                value={option}
                radius="md"
                p="sm"
                w="auto"
                maw="100%"
                aria-label={STYLE_LABELS[option]}
                // The chosen style stands out: it is the one the embed codes use.
                bd={option === style ? "2px solid var(--mantine-primary-color-filled)" : undefined}
              >
                <Stack gap={8}>
                  <Group gap="xs" wrap="nowrap">
                    <Radio.Indicator />
                    <Text size="sm" fw={600}>
                      {STYLE_LABELS[option]}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {width} × {height}
                    </Text>
                  </Group>
                  {enabled ? (
                    <img
                      src={previewImageUrl(guildId, option, version)}
                      width={width}
                      height={height}
                      alt={`${STYLE_LABELS[option]} widget`}
                      style={{ maxWidth: "100%", height: "auto" }}
                    />
                  ) : (
                    <Box
                      w={width}
                      h={height}
                      maw="100%"
                      bg="var(--mantine-color-default-hover)"
                      bd="1px dashed var(--mantine-color-default-border)"
                      style={{ display: "grid", placeItems: "center", borderRadius: 4 }}
                    >
                      <Text size="xs" c="dimmed">
                        Widget Disabled
                      </Text>
                    </Box>
                  )}
                </Stack>
              </Radio.Card>
            );
          })}
        </Group>
      </Radio.Group>
    </SectionCard>
  );
}
