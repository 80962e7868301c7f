"use client";

import { Avatar, Badge, EmptyState, Group, Stack, Text, VisuallyHidden, type MantineTheme } from "@mantine/core";
import { modals } from "@mantine/modals";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import { IconUserMinus, IconUsers } from "~/components/icons.tsx";
import { api } from "~/trpc/react.tsx";
import { memberFlagLabels, userName, type LobbyMemberRow, type LobbyView } from "./lobby-format.ts";
import { MetadataBadges } from "./metadata-pairs.tsx";
import { Time } from "~/components/time/time.tsx";

const MEMBERS_PER_PAGE = 25;
const WIDE = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;

/** A lobby's members (up to a thousand, a page at a time), each removable after a confirmation. */
export function LobbyMembersTable({ applicationId, lobby }: { applicationId: string; lobby: LobbyView }) {
  const utils = api.useUtils();
  const [page, setPage] = useState(1);
  const remove = api.lobby.removeMember.useMutation({
    onSuccess: async (_, { userId }) => {
      const member = lobby.members.find((m) => m.user.id === userId);
      notifySuccess(`${member ? userName(member.user) : "The player"} is no longer in the lobby.`, "Member removed");
      await utils.lobby.get.invalidate({ applicationId, lobbyId: lobby.id });
    },
    onError: (error) => notifyFailure("Could not remove the member", error),
  });
  const lastPage = Math.max(1, Math.ceil(lobby.members.length / MEMBERS_PER_PAGE));
  const shown = Math.min(page, lastPage);
  const records = lobby.members.slice((shown - 1) * MEMBERS_PER_PAGE, shown * MEMBERS_PER_PAGE);

  const confirmRemove = (member: LobbyMemberRow) =>
    modals.openConfirmModal({
      title: "Remove member",
      children: (
        <Text size="sm">
          Remove <b>{userName(member.user)}</b> from this lobby? Their game client hears that they left. The game may let them join again.
        </Text>
      ),
      labels: { confirm: "Remove", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () => remove.mutate({ applicationId, lobbyId: lobby.id, userId: member.user.id }),
    });

  const columns: DataTableColumn<LobbyMemberRow>[] = [
    {
      accessor: "user",
      title: "Player",
      render: ({ user }) => (
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Avatar
            src={user.avatar ? cdnImageUrl("avatars", user.id, user.avatar) : null}
            name={userName(user)}
            color="initials"
            size="sm"
            alt=""
            visibleFrom="xs"
          />
          <Stack gap={0} miw={0}>
            <Text size="sm" fw={500} truncate maw={{ base: 100, sm: 240 }}>
              {userName(user)}
            </Text>
            <Text size="xs" c="dimmed" truncate maw={{ base: 100, sm: 240 }}>
              @{user.username}
            </Text>
          </Stack>
        </Group>
      ),
    },
    {
      accessor: "flags",
      title: "Flags",
      render: (member) => {
        const labels = memberFlagLabels(member.flags);
        return labels.length ? (
          <Group gap={4}>
            {labels.map((label) => (
              <Badge key={label} size="sm" variant="light" tt="none">
                {label}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            None
          </Text>
        );
      },
    },
    { accessor: "metadata", title: "Metadata", visibleMediaQuery: WIDE, render: (member) => <MetadataBadges metadata={member.metadata} max={3} /> },
    {
      accessor: "joinedAt",
      title: "Joined",
      noWrap: true,
      visibleMediaQuery: WIDE,
      render: (member) => (
        <Text size="sm">
          <Time value={member.joinedAt} />
        </Text>
      ),
    },
    {
      accessor: "actions",
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      textAlign: "right",
      render: (member) => (
        <GuardedAction
          label={`Remove ${userName(member.user)} from the lobby`}
          color="red"
          loading={remove.isPending && remove.variables.userId === member.user.id}
          onClick={() => confirmRemove(member)}
        >
          <IconUserMinus size={16} />
        </GuardedAction>
      ),
    },
  ];

  return (
    <DataTable<LobbyMemberRow>
      withTableBorder
      borderRadius="md"
      verticalSpacing="xs"
      minHeight={lobby.members.length === 0 ? 240 : undefined}
      idAccessor={(member) => member.user.id}
      records={records}
      columns={columns}
      emptyState={
        <EmptyState
          icon={<IconUsers size={24} />}
          variant="light"
          size="sm"
          title="Nobody is in this lobby"
          description="The game server adds players, or they join with the lobby's secret."
        />
      }
      totalRecords={lobby.members.length}
      recordsPerPage={MEMBERS_PER_PAGE}
      page={shown}
      onPageChange={setPage}
      paginationText={({ from, to, totalRecords }) => `${from}–${to} of ${totalRecords}`}
      paginationWrapBreakpoint="sm"
    />
  );
}
