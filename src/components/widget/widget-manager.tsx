"use client";

import { Alert, SimpleGrid, Stack } from "@mantine/core";
import { useState } from "react";
import { useSectionDenials } from "~/components/guild/use-section-denials.ts";
import { IconInfoCircle } from "~/components/icons.tsx";
import { PageSkeleton } from "~/components/page-skeleton.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import type { WidgetStyle } from "~/server/guild-config/widget.schema.ts";
import { api } from "~/trpc/react.tsx";
import { WidgetEmbedCard } from "./widget-embed-card.tsx";
import { WidgetJsonCard } from "./widget-json-card.tsx";
import { WidgetSettingsCard } from "./widget-settings-card.tsx";
import { WidgetStylePicker } from "./widget-style-picker.tsx";

/** The guild widget: whether it is on, where its invite leads, its images and JSON, and how to embed them. */
export function WidgetManager({ guildId, baseUrl }: { guildId: string; baseUrl: string }) {
  const guild = api.guild.get.useQuery({ guildId });
  const denials = useSectionDenials(guildId);
  const lockReason = denials?.widget ?? null;
  // Reading the settings and changing them share one rule; others see them on the guild object.
  const settings = api.widget.settings.useQuery({ guildId }, { enabled: denials !== undefined && lockReason === null });
  const [style, setStyle] = useState<WidgetStyle>("shield");
  // Changes after each save, so the previews load the images again.
  const [version, setVersion] = useState(0);

  const header = <PageHeader title="Widget" description="A badge or banner for other sites, and JSON for your own widget, showing who is online." />;
  if (guild.isError) return <QueryError error={guild.error} onRetry={() => void guild.refetch()} title="Could not load the guild" />;
  if (settings.isError) return <QueryError error={settings.error} onRetry={() => void settings.refetch()} title="Could not load the widget" />;
  if (guild.isPending || !denials || (lockReason === null && settings.isPending)) return <PageSkeleton blocks={3} />;

  const current = settings.data ?? { enabled: guild.data.widget_enabled, channel_id: guild.data.widget_channel_id };
  return (
    <Stack gap="lg">
      {header}
      <WidgetSettingsCard guildId={guildId} settings={current} lockReason={lockReason} onSaved={() => setVersion((v) => v + 1)} />
      {current.enabled ? null : (
        <Alert color="gray" icon={<IconInfoCircle size={18} />} title="The widget is off">
          Until it is enabled, its images and its JSON answer everyone with “Widget Disabled”.
        </Alert>
      )}
      <WidgetStylePicker guildId={guildId} enabled={current.enabled} style={style} onStyleChange={setStyle} version={version} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <WidgetEmbedCard guildId={guildId} guildName={guild.data.name} baseUrl={baseUrl} style={style} enabled={current.enabled} />
        <WidgetJsonCard guildId={guildId} enabled={current.enabled} />
      </SimpleGrid>
    </Stack>
  );
}
