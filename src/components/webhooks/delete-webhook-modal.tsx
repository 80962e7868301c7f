"use client";

import { Modal, Text } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { ReasonConfirm } from "~/components/members/reason-input.tsx";
import { api } from "~/trpc/react.tsx";
import type { DashboardWebhook } from "./webhook-types.ts";

type Props = { channelId: string; webhook: DashboardWebhook | null; onClose: () => void };

export function DeleteWebhookModal({ channelId, webhook, onClose }: Props) {
  return (
    <Modal opened={webhook !== null} onClose={onClose} title="Delete webhook">
      {webhook ? <DeleteForm key={webhook.id} channelId={channelId} webhook={webhook} onClose={onClose} /> : null}
    </Modal>
  );
}

function DeleteForm({ channelId, webhook, onClose }: { channelId: string; webhook: DashboardWebhook; onClose: () => void }) {
  const utils = api.useUtils();
  const remove = api.webhook.delete.useMutation({
    onSuccess: async () => {
      notifySuccess(`${webhook.name} can no longer post.`, "Webhook deleted");
      onClose();
      await utils.webhook.channel.invalidate({ channelId });
    },
    onError: (error) => notifyFailure(`Could not delete ${webhook.name}`, error),
  });
  return (
    <ReasonConfirm
      confirmLabel={`Delete ${webhook.name}`}
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={(reason) => remove.mutate({ webhookId: webhook.id, reason: reason || undefined })}
    >
      <Text size="sm">
        Delete the webhook <b>{webhook.name}</b>? Its URL stops working at once, for every service that posts with it. Messages it sent stay.
      </Text>
    </ReasonConfirm>
  );
}
