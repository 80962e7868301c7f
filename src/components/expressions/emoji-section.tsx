"use client";

import { Button, Group, Image, Stack, Text, useMatches, VisuallyHidden } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { modals } from "@mantine/modals";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconMoodSmile, IconPencil, IconTrash, IconUpload } from "~/components/icons.tsx";
import { RoleChip } from "~/components/members/member-identity.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { TableEmptyState } from "~/components/table-empty-state.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api } from "~/trpc/react.tsx";
import { EditEmojiModal, UploadEmojiModal } from "./emoji-form-modal.tsx";
import { ExpressionToolbar, SlotCounts, Uploader } from "./expression-parts.tsx";
import { emojiImageUrl, type EmojiRow, type EmojiRows } from "./expression-values.ts";

function UsableBy({ emoji, roles }: { emoji: EmojiRow["emoji"]; roles: EmojiRows["roles"] }) {
  const limited = roles.filter((role) => emoji.roles.includes(role.id));
  if (limited.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Everyone
      </Text>
    );
  return (
    <Group gap={4}>
      {limited.map((role) => (
        <RoleChip key={role.id} role={role} />
      ))}
    </Group>
  );
}

/** The guild's emojis: slots per kind, upload, rename and roles, delete after confirming; each refusal shown with the service's reason. */
export function EmojiSection({ guildId }: { guildId: string }) {
  const query = api.emoji.rows.useQuery({ guildId });
  const utils = api.useUtils();
  const [uploading, upload] = useDisclosure(false);
  const [editing, setEditing] = useState<EmojiRow | null>(null);
  const isWide = useMatches({ base: false, sm: true });
  const remove = api.emoji.delete.useMutation({
    onSuccess: async () => {
      notifySuccess("Members can no longer use it.", "Emoji deleted");
      await utils.emoji.rows.invalidate({ guildId });
    },
    onError: (error) => notifyFailure("Could not delete the emoji", error),
  });

  if (query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} title="Could not load emojis" />;
  if (query.isPending) return <TableSkeleton rows={4} />;
  const { create, slots, rows, roles } = query.data;
  const bothFull = slots.static.full && slots.animated.full ? slots.static.full : null;
  const showsUploaders = isWide && rows.some((row) => row.emoji.user);

  const confirmDelete = ({ emoji }: EmojiRow) =>
    modals.openConfirmModal({
      title: "Delete emoji",
      children: (
        <Text size="sm">
          Delete <b>:{emoji.name}:</b>? Members can no longer use it, and messages that used it show its name instead. This cannot be undone.
        </Text>
      ),
      labels: { confirm: "Delete emoji", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () => remove.mutate({ guildId, emojiId: emoji.id }),
    });

  const columns: DataTableColumn<EmojiRow>[] = [
    {
      accessor: "emoji",
      title: "Emoji",
      render: ({ emoji }) => (
        <Group gap="sm" wrap="nowrap">
          <Image src={emojiImageUrl(emoji)} alt="" w={32} h={32} fit="contain" style={{ flexShrink: 0 }} />
          <Stack gap={4} miw={0}>
            <Text size="sm" fw={500} style={{ overflowWrap: "anywhere" }}>
              :{emoji.name}:
            </Text>
            {isWide ? null : <UsableBy emoji={emoji} roles={roles} />}
          </Stack>
        </Group>
      ),
    },
    { accessor: "roles", title: "Who can use it", hidden: !isWide, render: ({ emoji }) => <UsableBy emoji={emoji} roles={roles} /> },
    { accessor: "user", title: "Uploaded by", hidden: !showsUploaders, render: ({ emoji }) => <Uploader user={emoji.user} /> },
    {
      accessor: "actions",
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      width: 90,
      textAlign: "right",
      render: (row) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <GuardedAction label={`Edit :${row.emoji.name}:`} blockedReason={row.denial} onClick={() => setEditing(row)}>
            <IconPencil size={16} />
          </GuardedAction>
          <GuardedAction label={`Delete :${row.emoji.name}:`} blockedReason={row.denial} color="red" onClick={() => confirmDelete(row)}>
            <IconTrash size={16} />
          </GuardedAction>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <ExpressionToolbar
        create={create}
        slots={
          <SlotCounts
            label="Emoji slots"
            slots={[
              { kind: "static", slot: slots.static },
              { kind: "animated", slot: slots.animated },
            ]}
          />
        }
        action={
          <Button leftSection={<IconUpload size={16} />} onClick={upload.open} disabled={Boolean(bothFull)} aria-description={bothFull ?? undefined}>
            Upload emoji
          </Button>
        }
      />
      <DataTable<EmojiRow>
        aria-label="Emojis"
        withTableBorder
        borderRadius="md"
        verticalSpacing="sm"
        minHeight={rows.length === 0 ? 220 : undefined}
        idAccessor={(row) => row.emoji.id}
        records={rows}
        columns={columns}
        emptyState={
          <TableEmptyState
            icon={<IconMoodSmile size={26} />}
            title="No emojis yet"
            description={create ? "Members who may create expressions can upload them." : "Upload images members can use in messages and reactions."}
          />
        }
      />
      <UploadEmojiModal guildId={guildId} roles={roles} opened={uploading} onClose={upload.close} />
      <EditEmojiModal guildId={guildId} roles={roles} row={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
