"use client";

import { Avatar, Badge, Button, Card, Code, EmptyState, Group, Select, Stack, Table, Text, Tooltip } from "@mantine/core";
import { keepPreviousData } from "@tanstack/react-query";
import { AuditLogEvent } from "discord-api-types/v10";
import { useMemo, useState } from "react";
import { humanize } from "~/components/format.ts";
import { useSectionDenials } from "~/components/guild/use-section-denials.ts";
import { IconChevronLeft, IconChevronRight, IconHistory, IconLock } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { AUDIT_PAGE_SIZE } from "./audit-page-size.ts";
import { Time } from "~/components/time/time.tsx";
import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";

type AuditLog = RouterOutputs["audit"]["list"];
type Entry = AuditLog["audit_log_entries"][number];

const ACTION_OPTIONS = Object.entries(AuditLogEvent)
  .filter((pair): pair is [string, number] => typeof pair[1] === "number")
  .map(([name, value]) => ({ value: String(value), label: humanize(name) }))
  .sort((a, b) => a.label.localeCompare(b.label));

function actionName(type: number): string {
  return (AuditLogEvent as unknown as Record<number, string | undefined>)[type] ?? "";
}

function actionLabel(type: number): string {
  const name = actionName(type);
  return name ? humanize(name) : `Action ${type}`;
}

function actionColor(type: number): string {
  const name = actionName(type);
  if (/Create|Add|Enable/.test(name)) return "teal";
  if (/Delete|Remove|Kick|Ban|Prune|Disable/.test(name)) return "red";
  return "blue";
}

function formatValue(value: unknown): string {
  if (value === undefined || value === null) return "none";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** "a → b" for an update; a create shows only the new value and a delete only the old. */
function formatChange(change: { old_value?: unknown; new_value?: unknown }, type: number): string {
  const name = actionName(type);
  if (/Create|Add/.test(name)) return formatValue(change.new_value);
  if (/Delete|Remove/.test(name)) return `was ${formatValue(change.old_value)}`;
  return `${formatValue(change.old_value)} → ${formatValue(change.new_value)}`;
}

type Names = { guild: string | null; roles: ReadonlyMap<string, string>; channels: ReadonlyMap<string, string>; users: ReadonlyMap<string, string> };

/** What an entry's target id names: the kind of action says where to look it up. */
function targetName(entry: Entry, names: Names): string | null {
  const id = entry.target_id;
  if (!id) return null;
  const action = actionName(entry.action_type);
  if (action.startsWith("Guild")) return names.guild ?? id;
  if (action.startsWith("Role")) return names.roles.get(id) ?? `Deleted role (${id})`;
  if (action.startsWith("Channel")) return names.channels.get(id) ?? `Deleted channel (${id})`;
  return names.users.get(id) ?? names.roles.get(id) ?? names.channels.get(id) ?? id;
}

/** The guild's audit log, newest first, a page at a time. */
export function AuditLogView({ guildId }: { guildId: string }) {
  const denials = useSectionDenials(guildId);
  const [actionType, setActionType] = useState<string | null>(null);
  // Ids each earlier page started before; the last one is the page on screen.
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors.at(-1);
  const lockReason = denials?.auditLog ?? null;

  const log = api.audit.list.useQuery(
    { guildId, query: { limit: String(AUDIT_PAGE_SIZE), ...(before && { before }), ...(actionType && { action_type: actionType }) } },
    { enabled: denials !== undefined && lockReason === null, placeholderData: keepPreviousData },
  );
  const roles = api.role.list.useQuery({ guildId });
  const channels = api.channel.list.useQuery({ guildId });
  const guild = api.guild.get.useQuery({ guildId });

  const names = useMemo(
    () => ({
      guild: guild.data?.name ?? null,
      roles: new Map((roles.data ?? []).map((role) => [role.id, `@${role.name.replace(/^@/, "")}`])),
      channels: new Map((channels.data ?? []).map((channel) => [channel.id, `#${channel.name}`])),
      users: new Map((log.data?.users ?? []).map((user) => [user.id, user.global_name ?? user.username])),
    }),
    [guild.data, roles.data, channels.data, log.data],
  );

  const entries = log.data?.audit_log_entries ?? [];
  const hasOlder = entries.length === AUDIT_PAGE_SIZE;

  const filters = (
    <Select
      label="Action"
      placeholder="All actions"
      data={ACTION_OPTIONS}
      value={actionType}
      onChange={(value) => {
        setActionType(value);
        setCursors([]);
      }}
      clearable
      searchable
      w={260}
      disabled={lockReason !== null}
    />
  );

  return (
    <Stack gap="lg" maw={1180} mx="auto">
      <PageHeader title="Audit log" description="Who changed what in the guild, and why." actions={filters} />
      {lockReason ? (
        <Card padding="xl">
          <EmptyState icon={<IconLock size={26} />} variant="light" color="gray" title="You can't view the audit log" description={`${lockReason}.`} />
        </Card>
      ) : log.isError ? (
        <QueryError error={log.error} onRetry={() => void log.refetch()} title="Could not load the audit log" />
      ) : log.isPending ? (
        <TableSkeleton rows={8} />
      ) : entries.length === 0 ? (
        <Card padding="xl">
          <EmptyState
            icon={<IconHistory size={26} />}
            variant="light"
            title={actionType || before ? "No matching entries" : "Nothing recorded yet"}
            description={actionType ? "No changes of this kind were made." : "Changes to the guild, its roles and channels will show up here."}
          />
        </Card>
      ) : (
        <Card padding={0}>
          <Table.ScrollContainer minWidth={860}>
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover style={{ opacity: log.isPlaceholderData ? 0.6 : 1 }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={180}>When</Table.Th>
                  <Table.Th w={190}>Who</Table.Th>
                  <Table.Th w={170}>Action</Table.Th>
                  <Table.Th>Target and changes</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <AuditRow key={entry.id} entry={entry} names={names} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {lockReason || (entries.length === 0 && cursors.length === 0) ? null : (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            Page {cursors.length + 1}
          </Text>
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconChevronLeft size={16} />}
              disabled={cursors.length === 0}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              Newer
            </Button>
            <Button
              variant="default"
              rightSection={<IconChevronRight size={16} />}
              disabled={!hasOlder || log.isFetching}
              onClick={() => {
                const last = entries.at(-1);
                if (last) setCursors((c) => [...c, last.id]);
              }}
            >
              Older
            </Button>
          </Group>
        </Group>
      )}
    </Stack>
  );
}

function AuditRow({ entry, names }: { entry: Entry; names: Names }) {
  const who = entry.user_id ? (names.users.get(entry.user_id) ?? entry.user_id) : "The platform";
  const target = targetName(entry, names);
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: "nowrap" }}>
          <Time value={snowflakeTimestamp(entry.id)} />
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Avatar name={who} color="initials" size={26} radius="xl" />
          <Text size="sm" truncate>
            {who}
          </Text>
        </Group>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={actionColor(entry.action_type)}>
          {actionLabel(entry.action_type)}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          {target ? (
            <Text size="sm" fw={500}>
              {target}
            </Text>
          ) : null}
          {entry.changes?.length ? (
            <Stack gap={2}>
              {entry.changes.slice(0, 4).map((change) => (
                <Text key={change.key} size="xs" c="dimmed">
                  <Code fz="xs">{change.key}</Code> {formatChange(change, entry.action_type)}
                </Text>
              ))}
              {entry.changes.length > 4 ? (
                <Tooltip
                  label={entry.changes
                    .slice(4)
                    .map((c) => c.key)
                    .join(", ")}
                >
                  <Text size="xs" c="dimmed" w="fit-content">
                    and {entry.changes.length - 4} more
                  </Text>
                </Tooltip>
              ) : null}
            </Stack>
          ) : null}
          {entry.reason ? (
            <Text size="xs" fs="italic">
              Reason: {entry.reason}
            </Text>
          ) : null}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}
