"use client";

import { Badge, Box, Button, Card, EmptyState, Group, Stack, Text, useMatches, VisuallyHidden } from "@mantine/core";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import { useState } from "react";
import { GuardedButton } from "~/components/guarded-button.tsx";
import { useSectionDenials } from "~/components/guild/use-section-denials.ts";
import { IconLink, IconLock, IconPlus } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api } from "~/trpc/react.tsx";
import { CreateInviteModal } from "./create-invite-modal.tsx";
import { formatUses, type InviteRow } from "./invite-options.ts";
import { PauseInvitesSwitch } from "./pause-invites-switch.tsx";
import { RevokeInviteModal } from "./revoke-invite-modal.tsx";
import { TargetUsersModal } from "./target-users-modal.tsx";
import { TimeLeft } from "~/components/time/time.tsx";

/** The guild's live invites: create one and copy its link, revoke, pause them all. */
export function InvitesManager({ guildId }: { guildId: string }) {
  const denials = useSectionDenials(guildId);
  const listReason = denials?.invites.list ?? null;
  const createReason = denials?.invites.create ?? null;
  const invites = api.invite.list.useQuery({ guildId }, { enabled: denials !== undefined && !listReason });
  const [isCreateOpen, setCreateOpen] = useState(false);
  const [target, setTarget] = useState<InviteRow | null>(null);
  const [isRevokeOpen, setRevokeOpen] = useState(false);
  const [isTargetUsersOpen, setTargetUsersOpen] = useState(false);
  const rows = invites.data ?? [];
  // A phone shows each invite as a card, its actions at the bottom, rather than a table to scroll.
  const isWide = useMatches({ base: false, sm: true });

  const inviterOf = (invite: InviteRow) => (invite.inviter ? (invite.inviter.global_name ?? invite.inviter.username) : null);
  const rolesOf = (invite: InviteRow) =>
    invite.roles.length ? (
      <Group gap={4}>
        {invite.roles.map((role) => (
          <Badge key={role.id} size="sm" variant="outline" color="gray" tt="none">
            {role.name}
          </Badge>
        ))}
      </Group>
    ) : null;
  const actionsOf = (invite: InviteRow) => (
    <>
      {/* The inviter or Manage Guild: the server decides and the dialog shows its refusal. */}
      <Button
        size="xs"
        variant="default"
        aria-label={`Target users of ${invite.code}`}
        onClick={() => {
          setTarget(invite);
          setTargetUsersOpen(true);
        }}
      >
        Target users
      </Button>
      <GuardedButton
        size="xs"
        variant="default"
        color="red"
        aria-label={`Revoke ${invite.code}`}
        blockedReason={denials?.invites.revoke[invite.channel.id] ?? null}
        onClick={() => {
          setTarget(invite);
          setRevokeOpen(true);
        }}
      >
        Revoke
      </GuardedButton>
    </>
  );
  const emptyState = (
    <EmptyState
      icon={<IconLink size={26} />}
      variant="light"
      title="No invites yet"
      description="Create an invite and send its link to the people you want here."
      size="sm"
    />
  );

  const columns: DataTableColumn<InviteRow>[] = [
    {
      accessor: "code",
      title: "Code",
      render: (invite) => (
        <Text size="sm" ff="monospace" fw={500}>
          {invite.code}
        </Text>
      ),
    },
    { accessor: "channel", title: "Channel", render: (invite) => <Text size="sm">#{invite.channel.name}</Text> },
    {
      accessor: "inviter",
      title: "Inviter",
      render: (invite) =>
        invite.inviter ? (
          <Text size="sm" truncate>
            {inviterOf(invite)}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Unknown
          </Text>
        ),
    },
    { accessor: "uses", title: "Uses", noWrap: true, render: (invite) => <Text size="sm">{formatUses(invite)}</Text> },
    {
      accessor: "expires_at",
      title: "Expires in",
      noWrap: true,
      render: (invite) => (
        <Text size="sm">
          <TimeLeft until={invite.expires_at} ended="Expired" />
        </Text>
      ),
    },
    {
      accessor: "temporary",
      title: "Temporary",
      render: (invite) =>
        invite.temporary ? (
          <Badge size="sm" variant="light" color="orange">
            Temporary
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            No
          </Text>
        ),
    },
    {
      accessor: "roles",
      title: "Roles granted",
      render: (invite) =>
        rolesOf(invite) ?? (
          <Text size="sm" c="dimmed">
            None
          </Text>
        ),
    },
    {
      accessor: "actions",
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      width: 250,
      textAlign: "right",
      render: (invite) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          {actionsOf(invite)}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg" maw={1080} mx="auto">
      <PageHeader
        title="Invites"
        description="Links that let people join this guild."
        actions={
          <GuardedButton leftSection={<IconPlus size={16} />} blockedReason={createReason} onClick={() => setCreateOpen(true)}>
            Create invite
          </GuardedButton>
        }
      />
      <PauseInvitesSwitch guildId={guildId} />
      {listReason ? (
        <Card padding="xl">
          <EmptyState icon={<IconLock size={26} />} variant="light" color="gray" title="You can't view this guild's invites" description={listReason} />
        </Card>
      ) : invites.isError ? (
        <QueryError error={invites.error} onRetry={() => void invites.refetch()} title="Could not load invites" />
      ) : invites.isPending ? (
        <TableSkeleton rows={4} />
      ) : isWide ? (
        <Box>
          <DataTable<InviteRow>
            withTableBorder
            borderRadius="md"
            verticalSpacing="sm"
            minHeight={rows.length === 0 ? 240 : undefined}
            styles={{ table: { minWidth: 820 } }}
            idAccessor="code"
            records={rows}
            columns={columns}
            emptyState={emptyState}
          />
        </Box>
      ) : rows.length === 0 ? (
        <Card withBorder padding="xl">
          {emptyState}
        </Card>
      ) : (
        <Stack gap="sm" component="ul" aria-label="Invites" p={0} m={0} style={{ listStyle: "none" }}>
          {rows.map((invite) => (
            <Card key={invite.code} withBorder padding="sm" radius="md" component="li" aria-label={`Invite ${invite.code}`}>
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                <Box miw={0}>
                  <Text size="sm" ff="monospace" fw={600}>
                    {invite.code}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    #{invite.channel.name}
                    {inviterOf(invite) ? ` · by ${inviterOf(invite)}` : ""}
                  </Text>
                </Box>
                {invite.temporary ? (
                  <Badge size="sm" variant="light" color="orange">
                    Temporary
                  </Badge>
                ) : null}
              </Group>
              <Group gap="md" mt={6}>
                <Text size="xs">
                  <Text span c="dimmed" inherit>
                    Uses
                  </Text>{" "}
                  {formatUses(invite)}
                </Text>
                <Text size="xs">
                  <Text span c="dimmed" inherit>
                    Expires in
                  </Text>{" "}
                  <TimeLeft until={invite.expires_at} ended="Expired" />
                </Text>
              </Group>
              {rolesOf(invite) ? (
                <Group gap={6} mt={6}>
                  <Text size="xs" c="dimmed">
                    Grants
                  </Text>
                  {rolesOf(invite)}
                </Group>
              ) : null}
              <Group gap="xs" mt="sm">
                {actionsOf(invite)}
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <CreateInviteModal guildId={guildId} opened={isCreateOpen} onClose={() => setCreateOpen(false)} />
      <RevokeInviteModal guildId={guildId} invite={target} opened={isRevokeOpen} onClose={() => setRevokeOpen(false)} />
      <TargetUsersModal invite={target} opened={isTargetUsersOpen} onClose={() => setTargetUsersOpen(false)} />
    </Stack>
  );
}
