"use client";

import { Button, Card, Drawer, EmptyState, Modal, Stack, Text, Tooltip } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { modals } from "@mantine/modals";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconPlus, IconShield } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api } from "~/trpc/react.tsx";
import { RoleForm } from "./role-form.tsx";
import { RoleTable } from "./role-table.tsx";
import { changedRoleParams, toRoleParams, toRoleValues, type RoleObject, type RoleRow } from "./role-values.ts";

/** The checklist's lock for a permission the server says this viewer may not add to the role. */
function permissionLockOf(row: RoleRow) {
  const ungrantable = BigInt(row.ungrantable);
  return (bit: bigint) => ((ungrantable & bit) !== 0n ? "You don't have this permission" : null);
}

// What the viewer may do to each role comes with the rows (role-dashboard.service.ts); this page only shows it.
export function RolesManager({ guildId }: { guildId: string }) {
  const roles = api.role.rows.useQuery({ guildId });
  const utils = api.useUtils();
  const [creating, createModal] = useDisclosure(false);
  const [editing, setEditing] = useState<RoleRow | null>(null);

  const refresh = () => Promise.all([utils.role.invalidate(), utils.guild.get.invalidate({ guildId })]);
  const manageReason = roles.data?.create ?? null;

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
  const move = api.role.move.useMutation({
    onSuccess: refresh,
    onError: (error) => notifyFailure("Could not move the role", error),
  });

  if (roles.isError) return <QueryError error={roles.error} onRetry={() => void roles.refetch()} title="Could not load roles" />;

  // Highest first, @everyone last, as the hierarchy ranks them.
  const rows = roles.data?.rows ?? [];
  const everyone = rows.find((row) => row.role.id === guildId)?.role ?? null;
  const hasRoles = rows.length > 1;

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
      {roles.isPending ? (
        <TableSkeleton rows={4} />
      ) : (
        <>
          {!hasRoles ? (
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
            <RoleTable
              guildId={guildId}
              rows={rows}
              manageReason={manageReason}
              moving={move.isPending}
              onMove={(request) => move.mutateAsync({ guildId, ...request }).catch(() => undefined)}
              onEdit={setEditing}
              onDelete={confirmDelete}
            />
          </Card>
        </>
      )}

      <Modal opened={creating} onClose={createModal.close} title="Create role" size="lg">
        <RoleForm
          initialValues={toRoleValues(null, everyone?.permissions ?? "0")}
          withPermissions={false}
          submitLabel="Create role"
          submitting={create.isPending}
          onCancel={createModal.close}
          failureTitle="Could not create the role"
          onSubmit={(values) => create.mutateAsync({ guildId, body: { ...toRoleParams(values), permissions: undefined } })}
        />
      </Modal>

      <Drawer opened={editing !== null} onClose={() => setEditing(null)} position="right" size="xl" title={editing ? `Edit role: ${editing.role.name}` : ""}>
        {editing ? (
          <RoleForm
            key={editing.role.id}
            initialValues={toRoleValues(editing.role, "0")}
            isEveryone={editing.role.id === guildId}
            permissionLock={permissionLockOf(editing)}
            submitLabel="Save role"
            requireChanges
            submitting={modify.isPending}
            onCancel={() => setEditing(null)}
            failureTitle="Could not save the role"
            onSubmit={(values, initial) => modify.mutateAsync({ guildId, roleId: editing.role.id, body: changedRoleParams(values, initial) })}
          />
        ) : null}
      </Drawer>
    </Stack>
  );
}
