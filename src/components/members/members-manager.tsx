"use client";

import { Button, Group, Select, Stack, Text, TextInput, useMatches, VisuallyHidden } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { keepPreviousData } from "@tanstack/react-query";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import { useMemo, useState } from "react";
import { CursorPager, useCursorStack } from "~/components/cursor-pager.tsx";
import { GuardedButton } from "~/components/guarded-button.tsx";
import { IconBan, IconSearch, IconUserOff, IconUsers } from "~/components/icons.tsx";
import { TableEmptyState } from "~/components/table-empty-state.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api } from "~/trpc/react.tsx";
import { BulkBanModal } from "./bulk-ban-modal.tsx";
import { MemberActionsMenu, type MemberAction } from "./member-actions-menu.tsx";
import { displayName, MEMBER_PAGE_SIZE, type MemberRow } from "./member-display.ts";
import { MemberDrawer } from "./member-drawer.tsx";
import { MemberIdentity, RoleChips } from "./member-identity.tsx";
import { MemberRolesModal } from "./member-roles-modal.tsx";
import { MemberStatusBadges } from "./member-status-badges.tsx";
import { NicknameModal } from "./nickname-modal.tsx";
import { PruneModal } from "./prune-modal.tsx";
import { BanModal, KickModal } from "./removal-modals.tsx";
import { TimeoutModal } from "./timeout-modal.tsx";
import { Time } from "~/components/time/time.tsx";

type Dialog = MemberAction | "bulkBan" | "prune";

/** The guild's members: search, role filter, paging, per-member moderation, bulk ban and prune. */
export function MembersManager({ guildId }: { guildId: string }) {
  const rights = api.member.rights.useQuery({ guildId });
  const roles = api.role.list.useQuery({ guildId });
  const [search, setSearch] = useState("");
  const [query] = useDebouncedValue(search.trim(), 300);
  const [roleId, setRoleId] = useState<string | null>(null);
  const pager = useCursorStack();
  // Kept across pages and searches, so members found by different searches can be banned together.
  const [selected, setSelected] = useState<MemberRow[]>([]);
  // The member a dialog is about stays set while the dialog animates closed.
  const [target, setTarget] = useState<MemberRow | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const list = api.member.list.useQuery(
    { guildId, after: pager.cursor ?? "0", limit: MEMBER_PAGE_SIZE, ...(query && { search: query }), ...(roleId && { roleId }) },
    { placeholderData: keepPreviousData },
  );

  const guildRoles = useMemo(() => (roles.data ?? []).filter((role) => role.id !== guildId), [roles.data, guildId]);
  const roleMap = useMemo(() => new Map(guildRoles.map((role) => [role.id, role])), [guildRoles]);
  const roleOptions = useMemo(() => [...guildRoles].reverse().map((role) => ({ value: role.id, label: role.name })), [guildRoles]);

  const open = (row: MemberRow, action: MemberAction) => {
    setTarget(row);
    setDialog(action);
  };
  const close = () => setDialog(null);
  const clearSearch = () => {
    setSearch("");
    pager.reset();
  };
  // A phone has room for who the member is and their actions: roles and status go under the name.
  const isWide = useMatches({ base: false, sm: true });

  const columns: DataTableColumn<MemberRow>[] = [
    {
      accessor: "name",
      title: "Member",
      width: isWide ? 240 : undefined,
      render: ({ member }) =>
        isWide ? (
          <MemberIdentity guildId={guildId} member={member} />
        ) : (
          <Stack gap={6} miw={0}>
            <MemberIdentity guildId={guildId} member={member} />
            <Group gap={4}>
              <MemberStatusBadges member={member} />
              <RoleChips roleIds={member.roles} roles={roleMap} max={2} />
            </Group>
          </Stack>
        ),
    },
    { accessor: "roles", title: "Roles", hidden: !isWide, render: ({ member }) => <RoleChips roleIds={member.roles} roles={roleMap} /> },
    { accessor: "joined", title: "Joined", hidden: !isWide, width: 130, noWrap: true, render: ({ member }) => <Time value={member.joined_at} /> },
    {
      accessor: "status",
      title: "Status",
      hidden: !isWide,
      width: 170,
      render: ({ member }) => (
        <Group gap={4} wrap="nowrap">
          <MemberStatusBadges member={member} />
        </Group>
      ),
    },
    {
      accessor: "actions",
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      width: 60,
      textAlign: "right",
      render: (row) => <MemberActionsMenu member={row.member} denials={row.denials} onAction={(action) => open(row, action)} />,
    },
  ];

  const isFiltered = Boolean(query || roleId);
  const rows = list.data?.rows ?? [];
  const bulkBanReason = rights.data ? rights.data.bulkBan : "Checking your permissions…";
  const pruneReason = rights.data ? rights.data.prune : "Checking your permissions…";

  return (
    <Stack gap="lg" maw={1180} mx="auto">
      <PageHeader
        title="Members"
        description="Everyone in the guild. Click a member for their roles, flags and permissions."
        actions={
          <GuardedButton variant="default" leftSection={<IconUserOff size={16} />} blockedReason={pruneReason} onClick={() => setDialog("prune")}>
            Prune
          </GuardedButton>
        }
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          aria-label="Search members"
          placeholder="Search by name or id"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            pager.reset();
          }}
          w={{ base: "100%", xs: 300 }}
        />
        <Select
          aria-label="Filter by role"
          placeholder="All roles"
          data={roleOptions}
          value={roleId}
          onChange={(value) => {
            setRoleId(value);
            pager.reset();
          }}
          clearable
          searchable
          nothingFoundMessage="No such role"
          w={{ base: "100%", xs: 220 }}
        />
        <Group gap="sm" ml="auto">
          {selected.length > 0 ? (
            <Group gap={4}>
              <Text size="sm" c="dimmed">
                {selected.length} selected
              </Text>
              <Button variant="subtle" size="compact-sm" onClick={() => setSelected([])}>
                Clear
              </Button>
            </Group>
          ) : null}
          <GuardedButton
            color="red"
            variant="light"
            leftSection={<IconBan size={16} />}
            blockedReason={bulkBanReason ?? (selected.length === 0 ? "Select members with the checkboxes first." : null)}
            onClick={() => setDialog("bulkBan")}
          >
            Ban selected
          </GuardedButton>
        </Group>
      </Group>

      {list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} title="Could not load members" />
      ) : list.isPending ? (
        <TableSkeleton rows={8} />
      ) : (
        <DataTable<MemberRow>
          withTableBorder
          borderRadius="md"
          verticalSpacing="sm"
          highlightOnHover
          minHeight={rows.length === 0 ? 260 : undefined}
          styles={{ table: { minWidth: isWide ? 780 : undefined } }}
          idAccessor={(row) => row.member.user.id}
          records={rows}
          columns={columns}
          fetching={list.isPlaceholderData}
          onRowClick={({ record }) => open(record, "details")}
          rowStyle={() => ({ cursor: "pointer" })}
          selectedRecords={selected}
          onSelectedRecordsChange={setSelected}
          isRecordSelectable={(row) => row.denials.ban === null}
          getRecordSelectionCheckboxProps={(row) => ({ "aria-label": `Select ${displayName(row.member)}`, title: row.denials.ban ?? undefined })}
          allRecordsSelectionCheckboxProps={{ "aria-label": "Select all on this page", disabled: !rows.some((row) => row.denials.ban === null) }}
          emptyState={
            <TableEmptyState
              icon={isFiltered ? <IconSearch size={26} /> : <IconUsers size={26} />}
              title={query ? `No members match “${query}”` : isFiltered ? "No members have this role" : "No members on this page"}
              description={
                query
                  ? `Try part of a name or an id${roleId ? ", or clear the role filter" : ""}.`
                  : isFiltered
                    ? "Clear the role filter to see everyone."
                    : "Go back to the previous page."
              }
              onClearSearch={query ? clearSearch : undefined}
            />
          }
        />
      )}
      {rows.length > 0 || pager.page > 1 ? <CursorPager pager={pager} nextCursor={list.data?.nextAfter} busy={list.isFetching} /> : null}

      <MemberDrawer guildId={guildId} member={target?.member ?? null} opened={dialog === "details"} onClose={close} />
      <NicknameModal guildId={guildId} member={target?.member ?? null} opened={dialog === "nick"} onClose={close} />
      <MemberRolesModal guildId={guildId} member={target?.member ?? null} opened={dialog === "roles"} onClose={close} />
      <TimeoutModal guildId={guildId} member={target?.member ?? null} opened={dialog === "timeout"} onClose={close} />
      <KickModal guildId={guildId} member={target?.member ?? null} opened={dialog === "kick"} onClose={close} />
      <BanModal guildId={guildId} member={target?.member ?? null} opened={dialog === "ban"} onClose={close} />
      <BulkBanModal
        guildId={guildId}
        members={selected.map((row) => row.member)}
        opened={dialog === "bulkBan"}
        onClose={close}
        onBanned={() => setSelected([])}
      />
      <PruneModal guildId={guildId} roles={guildRoles} opened={dialog === "prune"} onClose={close} />
    </Stack>
  );
}
