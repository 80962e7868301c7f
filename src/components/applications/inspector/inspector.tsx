"use client";

import { Badge, Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import "mantine-datatable/styles.css";
import { useCallback, useMemo, useRef, useState } from "react";
import { IconSearch, IconTrash } from "~/components/icons.tsx";
import { ReconnectingIndicator } from "~/components/live/reconnecting-indicator.tsx";
import { useLiveStream } from "~/components/live/use-live-stream.ts";
import { TableEmptyState } from "~/components/table-empty-state.tsx";
import type { RecordedCall, StatusClass } from "~/server/twin/call-recorder.ts";
import { api } from "~/trpc/react.tsx";
import { ApplicationHeader } from "../application-page.tsx";
import { InspectorCallDetails } from "./inspector-call-details.tsx";
import { callTime, callTitle, formatBytes, matchesFilters, MAX_SHOWN_CALLS, statusColor, type KindFilter } from "./inspector-words.ts";

// The stream's first id: "the latest calls", before the browser has heard any.
const LATEST = "latest";

const STATUS_OPTIONS = [
  { value: "2xx", label: "2xx success" },
  { value: "4xx", label: "4xx refused" },
  { value: "429", label: "429 rate limited" },
  { value: "5xx", label: "5xx failed" },
];

// Columns a phone does without, so the call itself keeps room to be read.
const WIDE = ({ breakpoints }: { breakpoints: Record<string, string> }) => `(min-width: ${breakpoints.md})`;

const COLUMNS: DataTableColumn<RecordedCall>[] = [
  {
    accessor: "at",
    title: "Time",
    noWrap: true,
    render: (call) => (
      <Text size="sm" ff="monospace">
        {callTime(call.at)}
      </Text>
    ),
  },
  {
    accessor: "kind",
    title: "Kind",
    noWrap: true,
    render: (call) =>
      call.kind === "rest" ? (
        <Badge variant="light" color="gray">
          REST
        </Badge>
      ) : (
        <Badge variant="light" color="grape">
          {call.direction === "in" ? "GW ↑" : "GW ↓"}
        </Badge>
      ),
  },
  {
    accessor: "path",
    title: "Call",
    cellsStyle: () => ({ minWidth: 180 }),
    render: (call) => (
      <Text size="sm" ff="monospace" style={{ overflowWrap: "anywhere" }}>
        {callTitle(call)}
      </Text>
    ),
  },
  {
    accessor: "status",
    title: "Status",
    render: (call) =>
      call.kind === "rest" ? (
        <Badge color={statusColor(call.status)} variant="light">
          {call.status}
        </Badge>
      ) : call.close_code !== undefined ? (
        <Badge color="red" variant="light">
          {call.close_code}
        </Badge>
      ) : null,
  },
  {
    accessor: "duration_ms",
    title: "Time taken",
    textAlign: "right",
    noWrap: true,
    visibleMediaQuery: WIDE,
    render: (call) => (call.kind === "rest" ? `${call.duration_ms} ms` : ""),
  },
  {
    accessor: "bucket",
    title: "Bucket",
    visibleMediaQuery: WIDE,
    render: (call) =>
      call.kind === "rest" && call.bucket ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
          {call.bucket.name}
        </Text>
      ) : null,
  },
  {
    accessor: "bytes",
    title: "Size",
    textAlign: "right",
    visibleMediaQuery: WIDE,
    noWrap: true,
    render: (call) => (call.kind === "rest" ? `${formatBytes(call.request_bytes)} / ${formatBytes(call.response_bytes)}` : formatBytes(call.bytes)),
  },
];

/** The calls the page has heard, newest first; each new one once, however often the stream replays. */
function useRecordedCalls(applicationId: string) {
  const [calls, setCalls] = useState<RecordedCall[]>([]);
  const lastId = useRef(0);
  const onCall = useCallback((call: RecordedCall) => {
    if (call.id <= lastId.current) return;
    lastId.current = call.id;
    setCalls((shown) => [call, ...shown.slice(0, MAX_SHOWN_CALLS - 1)]);
  }, []);
  const { isReconnecting } = useLiveStream<RecordedCall>(
    LATEST,
    (lastEventId, onData) => api.inspector.calls.useSubscription({ applicationId, lastEventId }, { onData }),
    onCall,
  );
  return { calls, isReconnecting, forget: () => setCalls([]) };
}

/**
 * The Inspector (test mode): every REST request and gateway frame of the application's bot
 * and players, live, newest at the top, as a browser's network tab shows requests.
 */
export function Inspector({ applicationId }: { applicationId: string }) {
  const { calls, isReconnecting, forget } = useRecordedCalls(applicationId);
  const [kind, setKind] = useState<KindFilter>("all");
  const [status, setStatus] = useState<StatusClass | null>(null);
  const [text, setText] = useState("");
  const [confirming, confirm] = useDisclosure(false);
  const clear = api.inspector.clear.useMutation({
    onSuccess: () => {
      forget();
      confirm.close();
    },
  });
  const shown = useMemo(() => calls.filter((call) => matchesFilters(call, { kind, status, text })), [calls, kind, status, text]);
  const filtering = kind !== "all" || status !== null || text.trim() !== "";

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <ApplicationHeader applicationId={applicationId} active="inspector" />
      <Stack gap={4}>
        <Group justify="space-between" gap="sm">
          <Title order={2} fz="xl">
            Inspector
          </Title>
          <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={confirm.open} disabled={calls.length === 0}>
            Clear
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Every REST request and gateway frame of this application, live. This instance runs in test mode; it keeps the latest 2,000 calls, in memory.
        </Text>
      </Stack>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SegmentedControl
          aria-label="Kind"
          value={kind}
          onChange={setKind}
          data={[
            { value: "all", label: "All" },
            { value: "rest", label: "REST" },
            { value: "gateway", label: "Gateway" },
          ]}
        />
        <Select
          aria-label="Status"
          placeholder="Any status"
          data={STATUS_OPTIONS}
          value={status}
          onChange={(value) => setStatus(value as StatusClass | null)}
          clearable
          w={180}
        />
        <TextInput
          aria-label="Filter calls"
          placeholder="Path, route or event"
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          style={{ flex: "1 1 220px" }}
        />
      </Group>
      <DataTable<RecordedCall>
        aria-label="Calls"
        scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}
        withTableBorder
        borderRadius="md"
        verticalSpacing="xs"
        highlightOnHover
        minHeight={shown.length === 0 ? 240 : undefined}
        records={shown}
        columns={COLUMNS}
        rowExpansion={{ allowMultiple: true, content: ({ record }) => <InspectorCallDetails call={record} /> }}
        emptyState={
          <TableEmptyState
            icon={<IconSearch size={26} />}
            title={filtering && calls.length > 0 ? "No calls match" : "No calls yet"}
            description={
              filtering && calls.length > 0
                ? "Other calls were made: change the filters to see them."
                : "Calls by this application's bot and players appear here as they happen."
            }
          />
        }
      />
      <Modal opened={confirming} onClose={confirm.close} title="Clear the recorded calls?">
        <Stack gap="md">
          <Text size="sm">Every call recorded for this application is forgotten, here and in the twin&apos;s calls API. New calls are recorded as before.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={confirm.close}>
              Cancel
            </Button>
            <Button color="red" leftSection={<IconTrash size={16} />} loading={clear.isPending} onClick={() => clear.mutate({ applicationId })}>
              Clear calls
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ReconnectingIndicator show={isReconnecting} />
    </Stack>
  );
}
