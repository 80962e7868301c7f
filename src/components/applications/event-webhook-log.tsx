"use client";

import { Badge, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData } from "@tanstack/react-query";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import "mantine-datatable/styles.css";
import { CursorPager, useCursorStack } from "~/components/cursor-pager.tsx";
import { IconSend } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { TableEmptyState } from "~/components/table-empty-state.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { Time } from "~/components/time/time.tsx";
import type { EventWebhookDeliveryEntry } from "~/server/event-webhooks/event-webhook-dashboard.service.ts";
import { api } from "~/trpc/react.tsx";
import { DELIVERY_STATUS_WORDS } from "./event-webhook-words.ts";

const PAGE_SIZE = 20;
/** Deliveries change as the background sends them: the log reads again while it is open. */
const REFRESH_MS = 5_000;

const COLUMNS: DataTableColumn<EventWebhookDeliveryEntry>[] = [
  { accessor: "createdAt", title: "Time", render: (row) => <Time value={row.createdAt} /> },
  { accessor: "eventType", title: "Event" },
  {
    accessor: "status",
    title: "Status",
    render: (row) => {
      const words = DELIVERY_STATUS_WORDS[row.status] ?? { label: row.status, color: "gray" };
      return (
        <Badge color={words.color} variant="light">
          {words.label}
        </Badge>
      );
    },
  },
  { accessor: "attempts", title: "Attempts", textAlign: "right" },
  {
    accessor: "lastHttpStatus",
    title: "Last answer",
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm">{row.lastHttpStatus ?? "None"}</Text>
        {row.lastError ? (
          <Text size="xs" c="dimmed">
            {row.lastError}
          </Text>
        ) : null}
      </Stack>
    ),
  },
  { accessor: "nextAttemptAt", title: "Next retry", render: (row) => (row.nextAttemptAt ? <Time value={row.nextAttemptAt} exact /> : "—") },
];

/** The delivery log: newest first, a page at a time. */
export function EventWebhookLog({ applicationId }: { applicationId: string }) {
  const pager = useCursorStack();
  const log = api.application.eventWebhooks.deliveries.useQuery(
    { applicationId, limit: PAGE_SIZE, ...(pager.cursor && { before: pager.cursor }) },
    { placeholderData: keepPreviousData, refetchInterval: REFRESH_MS },
  );
  const rows = log.data?.deliveries ?? [];
  return (
    <Stack gap="sm" mt="md">
      <Title order={3} fz="md">
        Delivery log
      </Title>
      {log.isError ? (
        <QueryError error={log.error} onRetry={() => void log.refetch()} title="Could not load the delivery log" />
      ) : log.isPending ? (
        <TableSkeleton rows={4} />
      ) : (
        <DataTable<EventWebhookDeliveryEntry>
          aria-label="Event webhook deliveries"
          // On a phone the columns scroll sideways: the scrolling region takes keyboard focus, as the theme's tables do.
          scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}
          withTableBorder
          borderRadius="md"
          verticalSpacing="sm"
          minHeight={rows.length === 0 ? 200 : undefined}
          records={rows}
          columns={COLUMNS}
          fetching={log.isPlaceholderData}
          emptyState={
            <TableEmptyState
              icon={<IconSend size={26} />}
              title={pager.page > 1 ? "No deliveries on this page" : "No deliveries yet"}
              description="Events sent to your URL show up here, newest first, for a week."
            />
          }
        />
      )}
      {rows.length > 0 || pager.page > 1 ? <CursorPager pager={pager} nextCursor={log.data?.nextBefore} busy={log.isFetching} /> : null}
    </Stack>
  );
}
