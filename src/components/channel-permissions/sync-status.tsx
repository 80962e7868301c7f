"use client";

import { Badge, Group, Text } from "@mantine/core";
import { modals } from "@mantine/modals";
import { GuardedButton } from "~/components/guarded-button.tsx";
import { IconRefresh } from "~/components/icons.tsx";

type Props = {
  parentName: string;
  synced: boolean;
  /** Why syncing is refused (from the server), or why not now; null when it may be done. */
  blockedReason: string | null;
  syncing: boolean;
  onSync: () => void;
};

/** Whether the channel has its category's permissions, and a way to copy them again. */
export function SyncStatus({ parentName, synced, blockedReason, syncing, onSync }: Props) {
  const confirm = () =>
    modals.openConfirmModal({
      title: "Sync with category",
      children: (
        <Text size="sm">
          Replace this channel&apos;s permissions with those of <b>{parentName}</b>? Its own overwrites are lost, and it follows the category&apos;s changes
          from then on.
        </Text>
      ),
      labels: { confirm: "Sync now", cancel: "Cancel" },
      onConfirm: onSync,
    });
  return (
    <Group justify="space-between" gap="sm">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Badge variant="light" color={synced ? "green" : "gray"} tt="none" size="lg">
          {synced ? `Synced with ${parentName}` : "Not synced"}
        </Badge>
        <Text size="xs" c="dimmed" visibleFrom="sm">
          {synced ? "Changes to the category apply here too." : "Its permissions differ from the category's."}
        </Text>
      </Group>
      {synced ? null : (
        <GuardedButton variant="default" size="xs" leftSection={<IconRefresh size={14} />} blockedReason={blockedReason} loading={syncing} onClick={confirm}>
          Sync now
        </GuardedButton>
      )}
    </Group>
  );
}
