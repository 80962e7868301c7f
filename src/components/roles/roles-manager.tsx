"use client";

import { Badge, Button, Card, ColorSwatch, Drawer, EmptyState, Group, Modal, Stack, Table, Text, Tooltip } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { modals } from "@mantine/modals";
import { PermissionFlagsBits } from "discord-api-types/v10";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { useGuildAccess } from "~/components/guild/use-guild-access.ts";
import { IconArrowDown, IconArrowUp, IconLock, IconPencil, IconPlus, IconShield, IconTrash } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { canManageRole } from "~/server/permissions/permissions.ts";
import { api } from "~/trpc/react.tsx";
import { RoleForm } from "./role-form.tsx";
import { changedRoleParams, colorToHex, toRoleParams, toRoleValues, type RoleObject } from "./role-values.ts";

const P = PermissionFlagsBits;

function countPermissions(permissions: string): number {
  let bits = BigInt(permissions);
  let count = 0;
  while (bits) {
    count += Number(bits & 1n);
    bits >>= 1n;
  }
  return count;
}

export function RolesManager({ guildId }: { guildId: string }) {
  const roles = api.role.list.useQuery({ guildId });
  const access = useGuildAccess(guildId);
  const utils = api.useUtils();
  const [creating, createModal] = useDisclosure(false);
  const [editing, setEditing] = useState<RoleObject | null>(null);

  const refresh = () => Promise.all([utils.role.list.invalidate({ guildId }), utils.guild.get.invalidate({ guildId })]);
  const manageReason = access.lacks(P.ManageRoles);

  /** Why the user can't edit, move or delete this role, or null. */
  const roleLock = (role: RoleObject): string | null => {
    if (manageReason) return manageReason;
    if (role.managed) return "Managed by an integration";
    if (!canManageRole({ isOwner: access.isOwner, actorHighestPosition: access.topRolePosition, targetRolePosition: role.position }))
      return "At or above your highest role";
    return null;
  };
  // A role may only carry permissions its editor holds.
  const permissionLock = (bit: bigint) => (access.can(bit) ? null : "You don't have this permission");

  const create = api.role.create.useMutation({
    onSuccess: async (role) => {
      notifySuccess(`${role.name} was created.`, "Role created");
      createModal.close();
      await refresh();
    },
  });
  const modify = api.role.modify.useMutation({
    onSuccess: async (role) => {
      notifySuccess(`${role.name} was updated.`, "Role saved");
      setEditing(null);
      await refresh();
    },
  });
  const remove = api.role.delete.useMutation({
    onSuccess: async () => {
      notifySuccess("The role was deleted.", "Role deleted");
      await refresh();
    },
    onError: (error) => notifyFailure("Could not delete the role", error),
  });
  const reorder = api.role.reorder.useMutation({
    onSuccess: (all) => {
      utils.role.list.setData({ guildId }, all);
      void utils.guild.get.invalidate({ guildId });
    },
    onError: (error) => notifyFailure("Could not move the role", error),
  });

  if (roles.isError) return <QueryError error={roles.error} onRetry={() => void roles.refetch()} title="Could not load roles" />;

  const everyone = roles.data?.find((r) => r.id === guildId) ?? null;
  // Low → high as the service orders them; the table shows the highest first.
  const ranked = roles.data?.filter((r) => r.id !== guildId) ?? [];
  const displayed = [...ranked].reverse();

  const move = (role: RoleObject, direction: "up" | "down") => {
    const index = ranked.findIndex((r) => r.id === role.id);
    const other = ranked[direction === "up" ? index + 1 : index - 1];
    if (!other) return;
    reorder.mutate({
      guildId,
      positions: [
        { id: role.id, position: other.position },
        { id: other.id, position: role.position },
      ],
    });
  };

  const confirmDelete = (role: RoleObject) =>
    modals.openConfirmModal({
      title: "Delete role",
      children: (
        <Text size="sm">
          Delete <b>{role.name}</b>? Members who have it lose its colour and permissions. This cannot be undone.
        </Text>
      ),
      labels: { confirm: "Delete role", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () => remove.mutate({ guildId, roleId: role.id }),
    });

  const row = (role: RoleObject, index: number) => {
    const lock = roleLock(role);
    const isEveryone = role.id === guildId;
    const above = displayed[index - 1];
    const below = displayed[index + 1];
    const permissionCount = countPermissions(role.permissions);
    const isAdmin = (BigInt(role.permissions) & P.Administrator) !== 0n;
    return (
      <Table.Tr key={role.id}>
        <Table.Td>
          <Group gap="sm" wrap="nowrap">
            <ColorSwatch color={colorToHex(role.color) || "var(--mantine-color-gray-5)"} size={14} withShadow={false} aria-hidden />
            <Text fw={500} size="sm">
              {role.name}
            </Text>
            {lock && !manageReason && !isEveryone ? (
              <Tooltip label={lock}>
                <span aria-label={lock} style={{ display: "inline-flex", color: "var(--mantine-color-dimmed)" }}>
                  <IconLock size={14} />
                </span>
              </Tooltip>
            ) : null}
          </Group>
        </Table.Td>
        <Table.Td>
          <Text size="sm" c="dimmed">
            {role.position}
          </Text>
        </Table.Td>
        <Table.Td>
          <Group gap={6}>
            {role.hoist ? (
              <Badge size="sm" variant="light" color="blue">
                Shown separately
              </Badge>
            ) : null}
            {role.mentionable ? (
              <Badge size="sm" variant="light" color="grape">
                Mentionable
              </Badge>
            ) : null}
            {role.managed ? (
              <Badge size="sm" variant="light" color="gray">
                Managed
              </Badge>
            ) : null}
            {!role.hoist && !role.mentionable && !role.managed ? (
              <Text size="sm" c="dimmed">
                —
              </Text>
            ) : null}
          </Group>
        </Table.Td>
        <Table.Td>
          {isAdmin ? (
            <Badge size="sm" variant="light" color="orange">
              Administrator
            </Badge>
          ) : (
            <Text size="sm" c="dimmed">
              {permissionCount} {permissionCount === 1 ? "permission" : "permissions"}
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          <Group gap={2} justify="flex-end" wrap="nowrap">
            {isEveryone ? null : (
              <>
                <GuardedAction
                  label={`Move ${role.name} up`}
                  blockedReason={lock ?? (above ? roleLock(above) : "Already the highest role")}
                  disabled={reorder.isPending}
                  onClick={() => move(role, "up")}
                >
                  <IconArrowUp size={16} />
                </GuardedAction>
                <GuardedAction
                  label={`Move ${role.name} down`}
                  blockedReason={lock ?? (below && below.id !== guildId ? null : "Already the lowest role")}
                  disabled={reorder.isPending}
                  onClick={() => move(role, "down")}
                >
                  <IconArrowDown size={16} />
                </GuardedAction>
              </>
            )}
            <GuardedAction label={`Edit ${role.name}`} blockedReason={isEveryone ? manageReason : lock} onClick={() => setEditing(role)}>
              <IconPencil size={16} />
            </GuardedAction>
            {isEveryone ? null : (
              <GuardedAction label={`Delete ${role.name}`} color="red" blockedReason={lock} onClick={() => confirmDelete(role)}>
                <IconTrash size={16} />
              </GuardedAction>
            )}
          </Group>
        </Table.Td>
      </Table.Tr>
    );
  };

  return (
    <Stack gap="lg" maw={1080} mx="auto">
      <PageHeader
        title="Roles"
        description="Roles group members and give them permissions. Higher roles outrank lower ones."
        actions={
          <Tooltip label={manageReason} disabled={!manageReason}>
            <span>
              <Button leftSection={<IconPlus size={16} />} onClick={createModal.open} disabled={Boolean(manageReason)}>
                Create role
              </Button>
            </span>
          </Tooltip>
        }
      />
      {roles.isPending || !access.isLoaded ? (
        <TableSkeleton rows={4} />
      ) : (
        <>
          {ranked.length === 0 ? (
            <Card padding="lg">
              <EmptyState
                variant="light"
                icon={<IconShield size={26} />}
                title="No roles yet"
                description="Everyone has only @everyone. Create roles for moderators, regulars or anyone who needs different permissions."
                size="sm"
              />
            </Card>
          ) : null}
          <Card padding={0}>
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Role</Table.Th>
                    <Table.Th w={90}>Position</Table.Th>
                    <Table.Th>Shown to members</Table.Th>
                    <Table.Th>Permissions</Table.Th>
                    <Table.Th w={170} ta="right">
                      Actions
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>{[...displayed, ...(everyone ? [everyone] : [])].map(row)}</Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        </>
      )}

      <Modal opened={creating} onClose={createModal.close} title="Create role" size="lg">
        <RoleForm
          initialValues={toRoleValues(null, everyone?.permissions ?? "0")}
          permissionLock={permissionLock}
          withPermissions={false}
          submitLabel="Create role"
          submitting={create.isPending}
          onCancel={createModal.close}
          failureTitle="Could not create the role"
          onSubmit={(values) => create.mutateAsync({ guildId, body: { ...toRoleParams(values), permissions: undefined } })}
        />
      </Modal>

      <Drawer opened={editing !== null} onClose={() => setEditing(null)} position="right" size="xl" title={editing ? `Edit role: ${editing.name}` : ""}>
        {editing ? (
          <RoleForm
            key={editing.id}
            initialValues={toRoleValues(editing, "0")}
            isEveryone={editing.id === guildId}
            permissionLock={permissionLock}
            submitLabel="Save role"
            requireChanges
            submitting={modify.isPending}
            onCancel={() => setEditing(null)}
            failureTitle="Could not save the role"
            onSubmit={(values, initial) => modify.mutateAsync({ guildId, roleId: editing.id, body: changedRoleParams(values, initial) })}
          />
        ) : null}
      </Drawer>
    </Stack>
  );
}
