"use client";

import { Code, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import type { RecordedBody, RecordedCall } from "~/server/twin/call-recorder.ts";
import { formatBytes, prettyBody } from "./inspector-words.ts";

/** One body: its text (JSON indented), or what it was when it is not text. */
function BodyView({ title, body, bytes }: { title: string; body: RecordedBody | null; bytes: number }) {
  return (
    <Stack gap={4} miw={0}>
      <Group gap="xs" justify="space-between">
        <Text size="sm" fw={600}>
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {formatBytes(bytes)}
          {body?.truncated ? ", first 8 KB shown" : ""}
        </Text>
      </Group>
      {body === null ? (
        <Text size="sm" c="dimmed">
          No body
        </Text>
      ) : body.text === null ? (
        <Text size="sm" c="dimmed">
          {body.content_type ?? "Binary"} body, not shown
        </Text>
      ) : (
        <Code block style={{ maxHeight: 320, overflow: "auto", whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
          {prettyBody(body.text)}
        </Code>
      )}
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
      {label}{" "}
      <Text span inherit c="var(--mantine-color-text)" ff="monospace">
        {value}
      </Text>
    </Text>
  );
}

/** What an expanded row shows: the call's facts, and its bodies (a request's and its answer's, or a frame's). */
export function InspectorCallDetails({ call }: { call: RecordedCall }) {
  return (
    <Stack gap="sm" p="md" bg="var(--mantine-color-default-hover)">
      <Group gap="lg" wrap="wrap">
        {call.kind === "rest" ? (
          <>
            <Fact label="Route" value={call.route ?? "no route serves this path"} />
            <Fact label="Caller" value={`${call.actor === "bot" ? "bot" : "bearer token of"} ${call.user_id}`} />
            {call.bucket ? <Fact label="Bucket" value={`${call.bucket.name} (${call.bucket.hash})`} /> : null}
          </>
        ) : (
          <>
            <Fact label="Session" value={call.session_id} />
            {call.s !== null ? <Fact label="Sequence" value={String(call.s)} /> : null}
          </>
        )}
        <Fact label="At" value={call.at} />
      </Group>
      {call.kind === "rest" ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <BodyView title="Request" body={call.request_body} bytes={call.request_bytes} />
          <BodyView title={`Response ${call.status}`} body={call.response_body} bytes={call.response_bytes} />
        </SimpleGrid>
      ) : call.close_code === undefined ? (
        <BodyView title={call.direction === "in" ? "Sent by the client" : "Sent by the gateway"} body={call.body} bytes={call.bytes} />
      ) : null}
    </Stack>
  );
}
