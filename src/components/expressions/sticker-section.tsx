"use client";

import { Badge, Button, Center, Group, Image, Stack, Text, useMatches, VisuallyHidden } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { modals } from "@mantine/modals";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconPencil, IconSticker, IconTrash, IconUpload } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { TableEmptyState } from "~/components/table-empty-state.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api } from "~/trpc/react.tsx";
import { ExpressionToolbar, SlotCounts, Uploader } from "./expression-parts.tsx";
import { stickerImageUrl, type StickerRow } from "./expression-values.ts";
import { EditStickerModal, UploadStickerModal } from "./sticker-form-modal.tsx";

function StickerImage({ sticker }: { sticker: StickerRow["sticker"] }) {
  const src = stickerImageUrl(sticker);
  return src ? (
    <Image src={src} alt="" w={56} h={56} fit="contain" style={{ flexShrink: 0 }} />
  ) : (
    <Center w={56} h={56} style={{ flexShrink: 0 }}>
      <Badge variant="light" color="gray" radius="sm">
        Lottie
      </Badge>
    </Center>
  );
}

/** The guild's stickers: slots, upload, edit, delete after confirming; each refusal shown with the service's reason. */
export function StickerSection({ guildId }: { guildId: string }) {
  const query = api.sticker.rows.useQuery({ guildId });
  const utils = api.useUtils();
  const [uploading, upload] = useDisclosure(false);
  const [editing, setEditing] = useState<StickerRow | null>(null);
  const isWide = useMatches({ base: false, sm: true });
  const remove = api.sticker.delete.useMutation({
    onSuccess: async () => {
      notifySuccess("Members can no longer send it.", "Sticker deleted");
      await utils.sticker.rows.invalidate({ guildId });
    },
    onError: (error) => notifyFailure("Could not delete the sticker", error),
  });

  if (query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} title="Could not load stickers" />;
  if (query.isPending) return <TableSkeleton rows={3} />;
  const { create, slots, rows } = query.data;
  const showsUploaders = isWide && rows.some((row) => row.sticker.user);

  const confirmDelete = ({ sticker }: StickerRow) =>
    modals.openConfirmModal({
      title: "Delete sticker",
      children: (
        <Text size="sm">
          Delete <b>{sticker.name}</b>? Members can no longer send it. This cannot be undone.
        </Text>
      ),
      labels: { confirm: "Delete sticker", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () => remove.mutate({ guildId, stickerId: sticker.id }),
    });

  const columns: DataTableColumn<StickerRow>[] = [
    {
      accessor: "sticker",
      title: "Sticker",
      render: ({ sticker }) => (
        <Group gap="sm" wrap="nowrap">
          <StickerImage sticker={sticker} />
          <Stack gap={2} miw={0}>
            <Text size="sm" fw={500} style={{ overflowWrap: "anywhere" }}>
              {sticker.name}
            </Text>
            {sticker.description ? (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {sticker.description}
              </Text>
            ) : null}
            {isWide ? null : (
              <Text size="xs" c="dimmed" truncate>
                Tags: {sticker.tags}
              </Text>
            )}
          </Stack>
        </Group>
      ),
    },
    { accessor: "tags", title: "Tags", hidden: !isWide, render: ({ sticker }) => <Text size="sm">{sticker.tags}</Text> },
    { accessor: "user", title: "Uploaded by", hidden: !showsUploaders, render: ({ sticker }) => <Uploader user={sticker.user} /> },
    {
      accessor: "actions",
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      width: 90,
      textAlign: "right",
      render: (row) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <GuardedAction label={`Edit ${row.sticker.name}`} blockedReason={row.denial} onClick={() => setEditing(row)}>
            <IconPencil size={16} />
          </GuardedAction>
          <GuardedAction label={`Delete ${row.sticker.name}`} blockedReason={row.denial} color="red" onClick={() => confirmDelete(row)}>
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
        slots={<SlotCounts label="Sticker slots" slots={[{ slot: slots }]} />}
        action={
          <Button leftSection={<IconUpload size={16} />} onClick={upload.open} disabled={Boolean(slots.full)} aria-description={slots.full ?? undefined}>
            Upload sticker
          </Button>
        }
      />
      <DataTable<StickerRow>
        aria-label="Stickers"
        withTableBorder
        borderRadius="md"
        verticalSpacing="sm"
        minHeight={rows.length === 0 ? 220 : undefined}
        idAccessor={(row) => row.sticker.id}
        records={rows}
        columns={columns}
        emptyState={
          <TableEmptyState
            icon={<IconSticker size={26} />}
            title="No stickers yet"
            description={create ? "Members who may create expressions can upload them." : "Upload images members can send on their own in a message."}
          />
        }
      />
      <UploadStickerModal guildId={guildId} opened={uploading} onClose={upload.close} />
      <EditStickerModal guildId={guildId} row={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
