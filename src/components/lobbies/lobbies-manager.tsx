"use client";

import { Anchor, Code, EmptyState, Group, List, Stack, Text, Tooltip, type MantineTheme } from "@mantine/core";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ApplicationHeader } from "~/components/applications/application-page.tsx";
import { IconUsers } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api } from "~/trpc/react.tsx";
import { formatDuration, LOBBY_REFRESH_MS, lobbyPath, type LobbySummary } from "./lobby-format.ts";
import { MetadataBadges } from "./metadata-pairs.tsx";
import { Time, TimeLeft } from "~/components/time/time.tsx";
import { formatDateTime } from "~/components/time/time-format.ts";

const WIDE = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;

/** An application's live lobbies, newest first, read again every few seconds. */
export function LobbiesManager({ applicationId }: { applicationId: string }) {
  const router = useRouter();
  const [page, setPage] = useState(1);
  const list = api.lobby.list.useQuery({ applicationId, page }, { refetchInterval: LOBBY_REFRESH_MS, placeholderData: (previous) => previous });
  const data = list.data;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  // Lobbies end while a later page is open: go back to the last page that still has some.
  useEffect(() => {
    if (data && page > lastPage) setPage(lastPage);
  }, [data, page, lastPage]);

  const columns: DataTableColumn<LobbySummary>[] = [
    {
      accessor: "id",
      title: "Lobby",
      render: (lobby) => (
        <Stack gap={0}>
          <Anchor component={Link} href={lobbyPath(applicationId, lobby.id)} size="sm" ff="monospace" fw={500} onClick={(event) => event.stopPropagation()}>
            {lobby.id}
          </Anchor>
          <Text size="xs" c="dimmed">
            Created <Time value={lobby.createdAt} />
          </Text>
        </Stack>
      ),
    },
    {
      accessor: "memberCount",
      title: "Members",
      textAlign: "right",
      // On a phone the lobby and when it shuts down come first; its page has the members.
      visibleMediaQuery: WIDE,
      render: (lobby) => <Text size="sm">{lobby.memberCount.toLocaleString("en-US")}</Text>,
    },
    { accessor: "metadata", title: "Metadata", visibleMediaQuery: WIDE, render: (lobby) => <MetadataBadges metadata={lobby.metadata} max={3} /> },
    {
      accessor: "linkedChannel",
      title: "Linked channel",
      visibleMediaQuery: WIDE,
      render: ({ linkedChannel }) =>
        linkedChannel ? (
          <Stack gap={0} miw={0}>
            <Text size="sm" truncate maw={200}>
              #{linkedChannel.name}
            </Text>
            <Text size="xs" c="dimmed" truncate maw={200}>
              {linkedChannel.guildName ?? "Unknown guild"}
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ),
    },
    {
      accessor: "expiresAt",
      title: "Shuts down",
      noWrap: true,
      render: (lobby) => (
        <Tooltip
          label={`After ${formatDuration(lobby.idleTimeoutSeconds)} without activity; last activity ${formatDateTime(lobby.lastActivityAt)}`}
          multiline
          maw={280}
        >
          <Text size="sm">
            {/* Once its deadline has passed it is shutting down; the next read drops it. */}
            <TimeLeft until={lobby.expiresAt} ended="Shutting down">
              {(left) => `in ${left}`}
            </TimeLeft>
          </Text>
        </Tooltip>
      ),
    },
  ];

  return (
    <Stack gap="lg" maw={1080} mx="auto">
      <ApplicationHeader applicationId={applicationId} active="lobbies" />
      <Group justify="space-between" align="baseline" gap="xs">
        <Text c="dimmed" size="sm">
          Matchmaking rooms of this application while they are live. They shut down after their idle timeout.
        </Text>
        {data ? (
          <Text size="sm" fw={500} aria-live="polite">
            {data.total.toLocaleString("en-US")} live {data.total === 1 ? "lobby" : "lobbies"}
          </Text>
        ) : null}
      </Group>
      {list.isError && !data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} title="Could not load the lobbies" />
      ) : !data ? (
        <TableSkeleton rows={4} />
      ) : data.total === 0 ? (
        <NoLobbies />
      ) : (
        <DataTable<LobbySummary>
          withTableBorder
          borderRadius="md"
          verticalSpacing="sm"
          highlightOnHover
          records={data.lobbies}
          columns={columns}
          onRowClick={({ record }) => router.push(lobbyPath(applicationId, record.id))}
          totalRecords={data.total}
          recordsPerPage={data.pageSize}
          page={page}
          onPageChange={setPage}
          paginationText={({ from, to, totalRecords }) => `${from}–${to} of ${totalRecords}`}
          paginationWrapBreakpoint="sm"
        />
      )}
    </Stack>
  );
}

function NoLobbies() {
  return (
    <EmptyState py={48} variant="light" icon={<IconUsers size={28} />} title="No live lobbies">
      {/* Not EmptyState.Description: that is a paragraph, and a list inside one is not HTML (hydration fails). */}
      <Stack gap="xs" maw={560} mx="auto" ta="left" c="dimmed">
        <Text size="sm">Lobbies are made by your game, not here:</Text>
        <List size="sm" spacing={4}>
          <List.Item>
            your game server calls <Code>POST /api/v10/lobbies</Code> with this application&apos;s bot token (<Code>Authorization: Bot …</Code>);
          </List.Item>
          <List.Item>
            a game client calls <Code>PUT /api/v10/lobbies</Code> with a secret and a player&apos;s Bearer token with the <Code>sdk.social_layer</Code> scope:
            it joins the lobby with that secret, or makes it.
          </List.Item>
        </List>
        <Text size="sm">They show up here while live; one idle for its timeout (5 minutes unless set) shuts down.</Text>
      </Stack>
    </EmptyState>
  );
}
