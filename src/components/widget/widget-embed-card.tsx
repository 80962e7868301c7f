"use client";

import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import type { WidgetStyle } from "~/server/guild-config/widget.schema.ts";
import { api } from "~/trpc/react.tsx";
import { htmlSnippet, markdownSnippet, publicJsonUrl, STYLE_LABELS } from "./widget-embed.ts";

/** Codes to paste elsewhere, for the chosen style, linking to the widget's invite. */
export function WidgetEmbedCard({
  guildId,
  guildName,
  baseUrl,
  style,
  enabled,
}: {
  guildId: string;
  guildName: string;
  baseUrl: string;
  style: WidgetStyle;
  enabled: boolean;
}) {
  // The same answer the JSON card shows: the invite the widget hands out.
  const preview = api.widget.preview.useQuery({ guildId }, { enabled, retry: false });
  const embed = { baseUrl, guildId, guildName, style, invite: preview.data?.instant_invite ?? null };
  return (
    <SectionCard title="Embed" id="widget-embed" description={`The ${STYLE_LABELS[style]} image, linking to the widget's invite when it has one.`}>
      <Snippet label="HTML" value={htmlSnippet(embed)} />
      <Snippet label="Markdown" value={markdownSnippet(embed)} />
      <Snippet label="JSON API" value={publicJsonUrl(baseUrl, guildId)} />
    </SectionCard>
  );
}

function Snippet({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? "Copied" : `Copy ${label}`}>
              <ActionIcon variant="subtle" color={copied ? "teal" : "gray"} onClick={copy} aria-label={`Copy ${label}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code block aria-label={`${label} code`} style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
        {value}
      </Code>
    </Stack>
  );
}
