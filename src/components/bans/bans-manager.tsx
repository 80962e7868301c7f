"use client";

import { Avatar, Box, Button, Card, EmptyState, Group, Stack, Text, TextInput, useMatches, VisuallyHidden } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { keepPreviousData } from "@tanstack/react-query";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import { useState } from "react";
import { CursorPager, useCursorStack } from "~/components/cursor-pager.tsx";
import { IconBan, IconLock, IconSearch } from "~/components/icons.tsx";
import { BAN_PAGE_SIZE } from "~/components/members/member-display.ts";
import { TableEmptyState } from "~/components/table-empty-state.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api } from "~/trpc/react.tsx";
import { bannedName, type BanRow } from "./ban-display.ts";
import { UnbanModal } from "./unban-modal.tsx";

/** The guild's bans: search by name or id, page through, unban with a reason. */
export function BansManager({ guildId }: { guildId: string }) {
  const rights = api.member.rights.useQuery({ guildId });
  const lockReason = rights.data?.ban ?? null;
  const [search, setSearch] = useState("");
  const [query] = useDebouncedValue(search.trim(), 300);
  const pager = useCursorStack();
  const [target, setTarget] = useState<BanRow | null>(null);
  const [isUnbanOpen, setUnbanOpen] = useState(false);

  const bans = api.member.bans.useQuery(
    { guildId, limit: BAN_PAGE_SIZE, ...(pager.cursor && { after: pager.cursor }), ...(query && { search: query }) },
    { enabled: rights.data !== undefined && lockReason === null, placeholderData: keepPreviousData },
  );
  const rows = bans.data?.bans ?? [];
  // A phone has room for who is banned and the Unban button: the reason goes under the name.
  const isWide = useMatches({ base: false, sm: true });
  const clearSearch = () => {
    setSearch("");
    pager.reset();
  };
  const reasonOf = (ban: BanRow) =>
    ban.reason ? (
      <Text size="sm">{ban.reason}</Text>
    ) : (
      <Text size="sm" c="dimmed">
        No reason given
      </Text>
    );

  const columns: DataTableColumn<BanRow>[] = [
    {
      accessor: "user",
      title: "User",
      width: isWide ? 260 : undefined,
      render: (ban) => (
        <Stack gap={6} miw={0}>
          <Group gap="sm" wrap="nowrap">
            <Avatar name={bannedName(ban)} alt={bannedName(ban)} color="initials" size={32} radius="xl" />
            <Box miw={0}>
              <Text size="sm" fw={500} truncate>
                {bannedName(ban)}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                @{ban.user.username}
              </Text>
            </Box>
          </Group>
          {isWide ? null : reasonOf(ban)}
        </Stack>
      ),
    },
    { accessor: "reason", title: "Reason", hidden: !isWide, render: reasonOf },
    {
      accessor: "actions",
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      width: 90,
      textAlign: "right",
      render: (ban) => (
        <Button
          size="xs"
          variant="default"
          aria-label={`Unban ${bannedName(ban)}`}
          onClick={() => {
            setTarget(ban);
            setUnbanOpen(true);
          }}
        >
          Unban
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="lg" maw={1080} mx="auto">
      <PageHeader title="Bans" description="Banned users can't rejoin until they are unbanned." />
      {lockReason ? (
        <Card padding="xl">
          <EmptyState icon={<IconLock size={26} />} variant="light" color="gray" title="You can't view bans" description={lockReason} />
        </Card>
      ) : rights.isError ? (
        <QueryError error={rights.error} onRetry={() => void rights.refetch()} title="Could not check your permissions" />
      ) : (
        <>
          <TextInput
            aria-label="Search bans"
            placeholder="Search by name or id"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              pager.reset();
            }}
            w={{ base: "100%", xs: 300 }}
          />
          {bans.isError ? (
            <QueryError error={bans.error} onRetry={() => void bans.refetch()} title="Could not load bans" />
          ) : bans.isPending ? (
            <TableSkeleton rows={6} />
          ) : (
            <DataTable<BanRow>
              withTableBorder
              borderRadius="md"
              verticalSpacing="sm"
              minHeight={rows.length === 0 ? 240 : undefined}
              styles={{ table: { minWidth: isWide ? 560 : undefined } }}
              idAccessor={(ban) => ban.user.id}
              records={rows}
              columns={columns}
              fetching={bans.isPlaceholderData}
              emptyState={
                <TableEmptyState
                  icon={query ? <IconSearch size={26} /> : <IconBan size={26} />}
                  title={query ? `No bans match “${query}”` : pager.page > 1 ? "No bans on this page" : "Nobody is banned"}
                  description={query ? "Try part of a name or an id." : "Users you ban from the Members page show up here."}
                  onClearSearch={query ? clearSearch : undefined}
                />
              }
            />
          )}
          {rows.length > 0 || pager.page > 1 ? <CursorPager pager={pager} nextCursor={bans.data?.nextAfter} busy={bans.isFetching} /> : null}
        </>
      )}
      <UnbanModal guildId={guildId} ban={target} opened={isUnbanOpen} onClose={() => setUnbanOpen(false)} />
    </Stack>
  );
}
