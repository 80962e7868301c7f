"use client";

import { Code, ScrollArea, Skeleton, Text } from "@mantine/core";
import { QueryError } from "~/components/query-error.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { api } from "~/trpc/react.tsx";

/** What widget.json answers anyone right now. */
export function WidgetJsonCard({ guildId, enabled }: { guildId: string; enabled: boolean }) {
  const preview = api.widget.preview.useQuery({ guildId }, { enabled, retry: false });
  return (
    <SectionCard title="JSON" id="widget-json" description="What widget.json answers: online members are anonymised, at most 100 are listed.">
      {!enabled ? (
        <Code block aria-label="widget.json answer">
          {JSON.stringify({ code: 50004, message: "Widget Disabled" }, null, 2)}
        </Code>
      ) : preview.isError ? (
        <QueryError error={preview.error} onRetry={() => void preview.refetch()} title="Could not load the widget's JSON" />
      ) : preview.isPending ? (
        <Skeleton h={160} />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {preview.data.presence_count === 1 ? "1 member online" : `${preview.data.presence_count} members online`}
            {preview.data.instant_invite ? "; its invite link is in instant_invite." : "; no invite channel, so instant_invite is null."}
          </Text>
          {/* A long answer scrolls: its viewport is a named region that takes focus, so arrow keys scroll it. */}
          <ScrollArea.Autosize mah={360} type="auto" viewportProps={{ tabIndex: 0, role: "region", "aria-label": "widget.json answer" }}>
            <Code block>{JSON.stringify(preview.data, null, 2)}</Code>
          </ScrollArea.Autosize>
        </>
      )}
    </SectionCard>
  );
}
