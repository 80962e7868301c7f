"use client";

import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconAlertTriangle, IconCheck } from "~/components/icons.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { displayName, type MemberObject } from "./member-display.ts";
import { DeleteHistorySelect } from "./delete-history-select.tsx";
import { ReasonConfirm } from "./reason-input.tsx";
import { useMemberRefresh } from "./use-member-refresh.ts";

type Props = { guildId: string; members: readonly MemberObject[]; opened: boolean; onClose: () => void; onBanned: () => void };

export function BulkBanModal({ guildId, members, opened, onClose, onBanned }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Ban selected members">
      {opened ? <BulkBanForm guildId={guildId} members={members} onClose={onClose} onBanned={onBanned} /> : null}
    </Modal>
  );
}

const NAMES_SHOWN = 8;

function BulkBanForm({ guildId, members, onClose, onBanned }: Omit<Props, "opened">) {
  const refresh = useMemberRefresh(guildId);
  // The members asked about, kept so the result can name them after the list refreshes.
  const [asked] = useState(members);
  const [deleteSeconds, setDeleteSeconds] = useState("0");
  const [result, setResult] = useState<RouterOutputs["member"]["bulkBan"] | null>(null);
  const bulkBan = api.member.bulkBan.useMutation({
    onSuccess: async (outcome) => {
      setResult(outcome);
      if (outcome.banned_users.length > 0) notifySuccess(`${outcome.banned_users.length} banned.`, "Members banned");
      onBanned();
      await refresh();
    },
    onError: (error) => notifyFailure("Could not ban the members", error),
  });

  if (result) {
    const failed = asked.filter((member) => result.failed_users.includes(member.user.id));
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconCheck size={18} />} title={`Banned ${result.banned_users.length} of ${asked.length}`}>
          {result.banned_users.length === asked.length ? "Everyone selected was banned." : null}
        </Alert>
        {result.failed_users.length > 0 ? (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={`${result.failed_users.length} could not be banned`}>
            {failed.map(displayName).join(", ")}. They may already be banned, or rank at or above you.
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    );
  }

  const names = asked.slice(0, NAMES_SHOWN).map(displayName).join(", ");
  const more = asked.length - NAMES_SHOWN;
  const count = `${asked.length} ${asked.length === 1 ? "member" : "members"}`;
  return (
    <ReasonConfirm
      confirmLabel={`Ban ${count}`}
      loading={bulkBan.isPending}
      onCancel={onClose}
      onConfirm={(reason) =>
        bulkBan.mutate({ guildId, body: { user_ids: asked.map((member) => member.user.id), delete_message_seconds: Number(deleteSeconds) }, reason })
      }
    >
      <Text size="sm">
        Ban <b>{count}</b>: {names}
        {more > 0 ? ` and ${more} more` : ""}. They are removed and can&apos;t rejoin until unbanned.
      </Text>
      <DeleteHistorySelect value={deleteSeconds} onChange={setDeleteSeconds} />
    </ReasonConfirm>
  );
}
