"use client";

import { Button, Group, Modal, Select, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { z } from "zod";
import { ImageField } from "~/components/forms/image-field.tsx";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { fieldErrorsOf, notifySuccess } from "~/components/forms/server-errors.ts";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import { ReasonInput } from "~/components/members/reason-input.tsx";
import { ZWebhookNameSchema } from "~/server/webhooks/webhook.schema.ts";
import { api } from "~/trpc/react.tsx";
import type { ChannelWebhooksView, DashboardWebhook } from "./webhook-types.ts";
import { WebhookUrlField } from "./webhook-url-field.tsx";

const validateName = bodyValidator(z.object({ name: ZWebhookNameSchema }));

type Props = {
  view: ChannelWebhooksView;
  /** The webhook to edit; null to create one. */
  webhook: DashboardWebhook | null;
  opened: boolean;
  onClose: () => void;
};

/** Create a webhook in the channel, or edit one: name, avatar, and (editing) the channel it posts in. */
export function WebhookFormModal({ view, webhook, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={webhook ? `Edit ${webhook.name}` : "Create webhook"}>
      {opened ? <WebhookForm key={webhook?.id ?? "new"} view={view} webhook={webhook} onClose={onClose} /> : null}
    </Modal>
  );
}

function WebhookForm({ view, webhook, onClose }: { view: ChannelWebhooksView; webhook: DashboardWebhook | null; onClose: () => void }) {
  const utils = api.useUtils();
  const [name, setName] = useState(webhook?.name ?? "");
  const [avatar, setAvatar] = useState<string | null | undefined>(undefined);
  const [channelId, setChannelId] = useState(webhook?.channel_id ?? view.channel.id);
  const [reason, setReason] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const feedback = useSaveFeedback(null, webhook ? "Could not save the webhook" : "Could not create the webhook");

  const done = async (message: string, title: string, movedTo: string | null) => {
    notifySuccess(message, title);
    onClose();
    await utils.webhook.channel.invalidate({ channelId: view.channel.id });
    if (movedTo) await utils.webhook.channel.invalidate({ channelId: movedTo });
  };
  const create = api.webhook.create.useMutation({
    onSuccess: (created) => done(`${created.name} can post in #${view.channel.name}.`, "Webhook created", null),
    onError: (error) => feedback.onServerError(error),
  });
  const modify = api.webhook.modify.useMutation({
    onSuccess: (updated) => done(`${updated.name} was saved.`, "Webhook saved", updated.channel_id !== view.channel.id ? (updated.channel_id ?? null) : null),
    onError: (error) => feedback.onServerError(error),
  });
  const serverErrors = fieldErrorsOf(create.error ?? modify.error);

  const submit = () => {
    const parsed = ZWebhookNameSchema.safeParse(name);
    if (!parsed.success) {
      const errors = validateName({ name });
      setNameError(errors.name as string);
      feedback.onInvalid(errors);
      return;
    }
    setNameError(null);
    const options = { reason: reason || undefined };
    if (!webhook) {
      create.mutate({ channelId: view.channel.id, body: { name: parsed.data, ...(avatar && { avatar }) }, ...options });
      return;
    }
    modify.mutate({
      webhookId: webhook.id,
      body: {
        ...(parsed.data !== webhook.name && { name: parsed.data }),
        ...(avatar !== undefined && { avatar }),
        ...(channelId !== webhook.channel_id && { channel_id: channelId }),
      },
      ...options,
    });
  };

  return (
    <form
      ref={feedback.ref}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        {webhook?.url ? <WebhookUrlField name={webhook.name} url={webhook.url} /> : null}
        <TextInput
          label="Name"
          description="Shown as the author of its messages. 1 to 80 characters."
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={nameError ?? serverErrors.name}
          data-autofocus
        />
        <ImageField
          label="Avatar"
          shape="square"
          currentUrl={webhook?.avatar ? cdnImageUrl("avatars", webhook.id, webhook.avatar) : null}
          value={avatar}
          onChange={setAvatar}
          error={serverErrors.avatar}
        />
        {webhook ? (
          <Select
            label="Channel"
            description="Where its messages go. Channels of this guild where you manage webhooks."
            data={view.moveTargets.map((target) => ({ value: target.id, label: `#${target.name}` }))}
            value={channelId}
            onChange={(value) => value && setChannelId(value)}
            allowDeselect={false}
            searchable
            error={serverErrors.channel_id}
          />
        ) : null}
        <ReasonInput value={reason} onChange={(event) => setReason(event.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || modify.isPending}>
            {webhook ? "Save" : "Create webhook"}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
