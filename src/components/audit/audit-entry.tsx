"use client";

import { ActionIcon, Avatar, Badge, Box, Button, Collapse, CopyButton, Group, Stack, Text, Tooltip, UnstyledButton } from "@mantine/core";
import { useId, useState } from "react";
import { Time } from "~/components/time/time.tsx";
import { IconCheck, IconChevronDown, IconCopy } from "~/components/icons.tsx";
import type { AuditLogEntryObject } from "~/server/audit/audit.dto.ts";
import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";
import { describeEntry } from "./audit-describe.ts";
import { Parts } from "./audit-parts.tsx";
import { partsText, type Lookup } from "./audit-refs.ts";

export type FilterBy = { user_id?: string; target_id?: string };

function CopyId({ label, value }: { label: string; value: string }) {
  return (
    <Group gap={6} wrap="nowrap" miw={0}>
      <Text size="sm" c="dimmed" w={80} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="xs" ff="monospace" truncate>
        {value}
      </Text>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? "Copied" : `Copy ${label.toLowerCase()}`} withArrow>
            <ActionIcon variant="subtle" color={copied ? "teal" : "gray"} size="sm" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** A label and its value side by side; on a narrow screen the value wraps under its label. */
function Field({ field, children }: { field: string; children: React.ReactNode }) {
  return (
    <Box style={{ display: "flex", flexWrap: "wrap", columnGap: "var(--mantine-spacing-sm)" }}>
      <Text size="sm" c="dimmed" style={{ flex: "0 0 150px" }}>
        {field}
      </Text>
      <Text size="sm" style={{ flex: "1 1 220px", minWidth: 0, overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Box>
  );
}

/** One entry: who did what to whom and why, as a sentence; everything else on expanding it. */
export function AuditEntry({ entry, lookup, onFilter }: { entry: AuditLogEntryObject; lookup: Lookup; onFilter: (by: FilterBy) => void }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const described = describeEntry(entry, lookup);
  const [actor] = described.sentence;
  const actorName = actor && typeof actor !== "string" && "ref" in actor ? actor.ref.text : "Guildhall";
  const sentence = partsText(described.sentence);
  const at = snowflakeTimestamp(entry.id);
  const count = described.changes.length ? `${described.changes.length} ${described.changes.length === 1 ? "change" : "changes"}` : "";
  return (
    <Box component="li" py="sm" px="md" style={{ borderBottom: "1px solid var(--mantine-color-default-border)", listStyle: "none" }} aria-label={sentence}>
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <Avatar name={actorName} color="initials" size={32} radius="xl" mt={2} aria-hidden />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Badge variant="light" color={described.tone} radius="sm" tt="none" style={{ flexShrink: 0 }}>
              {described.label}
            </Badge>
            <Text size="xs" c="dimmed">
              <Time value={at} />
            </Text>
          </Group>
          <Text size="sm" style={{ overflowWrap: "anywhere" }}>
            <Parts parts={described.sentence} />
            {entry.reason ? (
              <Text span inherit c="dimmed">
                {" — "}
                {entry.reason}
              </Text>
            ) : null}
          </Text>
        </Stack>
        <UnstyledButton
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls={panelId}
          // The name holds what the button shows ("3 changes"), as speech input users say it.
          aria-label={`${open ? "Hide" : "Show"} details${count ? `: ${count}` : ""}`}
          style={{ flexShrink: 0, display: "flex", alignItems: "center", gap: 4, padding: 4, borderRadius: 4 }}
        >
          <Text size="xs" c="dimmed" visibleFrom="sm">
            {count || "Details"}
          </Text>
          <IconChevronDown size={18} style={{ transform: open ? "rotate(180deg)" : undefined, transition: "transform 150ms" }} />
        </UnstyledButton>
      </Group>
      <Collapse expanded={open} id={panelId}>
        <Stack gap="md" mt="sm" ml={{ base: 0, sm: 44 }} p="sm" bg="var(--mantine-color-default-hover)" style={{ borderRadius: "var(--mantine-radius-sm)" }}>
          {described.changes.length ? (
            <Stack gap={6}>
              <Text size="xs" fw={700} tt="uppercase" c="dimmed">
                Changes
              </Text>
              {described.changes.map((line) => (
                <Field key={line.key} field={line.field}>
                  <Parts parts={line.parts} />
                </Field>
              ))}
            </Stack>
          ) : null}
          <Stack gap={6}>
            <Text size="xs" fw={700} tt="uppercase" c="dimmed">
              Details
            </Text>
            {described.details.map((detail) => (
              <Field key={detail.field} field={detail.field}>
                <Parts parts={detail.parts} />
              </Field>
            ))}
            <Field field="Reason">
              {entry.reason ?? (
                <Text span inherit c="dimmed">
                  None given
                </Text>
              )}
            </Field>
            <Field field="When">
              <Time value={at} exact />
              <Text span display="block" size="xs" c="dimmed">
                {snowflakeTimestamp(entry.id)
                  .toISOString()
                  .replace("T", " ")
                  .replace(/\.\d+Z$/, " UTC")}
              </Text>
            </Field>
          </Stack>
          <Stack gap={2}>
            <CopyId label="Entry ID" value={entry.id} />
            {entry.user_id ? <CopyId label="User ID" value={entry.user_id} /> : null}
            {entry.target_id ? <CopyId label="Target ID" value={entry.target_id} /> : null}
          </Stack>
          <Group gap="xs">
            {entry.user_id ? (
              <Button size="xs" variant="default" onClick={() => onFilter({ user_id: entry.user_id ?? undefined })}>
                Only by {actorName}
              </Button>
            ) : null}
            {entry.target_id && described.target ? (
              <Button size="xs" variant="default" onClick={() => onFilter({ target_id: entry.target_id ?? undefined })}>
                Only about {described.target.text}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Collapse>
    </Box>
  );
}
