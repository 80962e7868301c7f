"use client";

import { Modal, Text } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { ReasonConfirm } from "~/components/members/reason-input.tsx";
import { api } from "~/trpc/react.tsx";
import type { DashboardMessage } from "./message-types.ts";

type Props = {
  channelId: string;
  message: DashboardMessage | null;
  onClose: () => void;
  /** Besides the channel's messages, what else shows it (search results) refreshes here. */
  onDeleted?: () => void;
};

export function DeleteMessageModal({ channelId, message, onClose, onDeleted }: Props) {
  return (
    <Modal opened={message !== null} onClose={onClose} title="Delete message">
      {message ? <DeleteForm key={message.id} channelId={channelId} message={message} onClose={onClose} onDeleted={onDeleted} /> : null}
    </Modal>
  );
}

function DeleteForm({ channelId, message, onClose, onDeleted }: Omit<Props, "message"> & { message: DashboardMessage }) {
  const utils = api.useUtils();
  const author = message.author.global_name ?? message.author.username;
  const remove = api.message.delete.useMutation({
    onSuccess: async () => {
      notifySuccess(`The message from ${author} is gone for everyone.`, "Message deleted");
      onClose();
      onDeleted?.();
      await utils.message.list.invalidate({ channelId });
    },
    onError: (error) => notifyFailure("Could not delete the message", error),
  });
  const preview = message.content || (message.embeds.length > 0 ? "(embeds only)" : "(no text)");
  return (
    <ReasonConfirm
      confirmLabel="Delete message"
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={(reason) => remove.mutate({ channelId, messageId: message.id, reason: reason || undefined })}
    >
      <Text size="sm">
        Delete this message from <b>{author}</b>? Everyone stops seeing it, and it cannot be brought back.
      </Text>
      <Text size="sm" c="dimmed" lineClamp={3} className="message-text">
        {preview}
      </Text>
    </ReasonConfirm>
  );
}
