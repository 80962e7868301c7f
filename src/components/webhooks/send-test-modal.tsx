"use client";

import { Alert, Button, Group, Modal, Paper, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useMemo, useState } from "react";
import { useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { fieldErrorsOf } from "~/components/forms/server-errors.ts";
import { MessageItem } from "~/components/messages/message-item.tsx";
import { mentionNamesOf, type DashboardMessage } from "~/components/messages/message-types.ts";
import type { MessageObject } from "~/server/messages/message.dto.ts";
import { MESSAGE_LIMITS } from "~/server/messages/message.schema.ts";
import { api } from "~/trpc/react.tsx";
import type { DashboardWebhook } from "./webhook-types.ts";

/** The posted message as the Messages view takes it; the preview offers no actions on it. */
function asShown(message: MessageObject): DashboardMessage {
  return { ...message, canDelete: false, canPublish: false, avatarUrl: null, thread: null };
}

type Props = { guildId: string; channelName: string; webhook: DashboardWebhook | null; onClose: () => void };

/** Posts a small message through the webhook, as a service would, and shows what was posted. */
export function SendTestModal({ guildId, channelName, webhook, onClose }: Props) {
  return (
    <Modal opened={webhook !== null} onClose={onClose} title="Send a test message" size="lg">
      {webhook ? <SendTestForm key={webhook.id} guildId={guildId} channelName={channelName} webhook={webhook} onClose={onClose} /> : null}
    </Modal>
  );
}

function SendTestForm({ guildId, channelName, webhook, onClose }: Omit<Props, "webhook"> & { webhook: DashboardWebhook }) {
  const [content, setContent] = useState("Hello from the webhook!");
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const feedback = useSaveFeedback(null, "Could not send the test message");
  const send = api.webhook.sendTest.useMutation({ onError: (error) => feedback.onServerError(error) });
  const errors = fieldErrorsOf(send.error);
  const sent = send.data;
  const names = useMemo(() => (sent ? mentionNamesOf(sent) : null), [sent]);

  return (
    <form
      ref={feedback.ref}
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate({ webhookId: webhook.id, content, embed: { title: title || undefined, description: description || undefined } });
      }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Posts in #{channelName} as {webhook.name}. Members see it like any other message.
        </Text>
        <Textarea
          label="Content"
          autosize
          minRows={2}
          maxRows={6}
          maxLength={MESSAGE_LIMITS.content}
          value={content}
          onChange={(event) => setContent(event.currentTarget.value)}
          error={errors.content}
        />
        <TextInput
          label="Embed title"
          maxLength={MESSAGE_LIMITS.embedTitle}
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          error={errors["embeds.0.title"]}
        />
        <Textarea
          label="Embed description"
          autosize
          minRows={2}
          maxRows={6}
          maxLength={MESSAGE_LIMITS.embedDescription}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
          error={errors["embeds.0.description"]}
        />
        {sent && names ? (
          <Alert color="teal" variant="light" title="Message posted" role="status">
            <Paper withBorder mt="xs" radius="md" aria-label="Posted message">
              {/* The renderer of the channel's Messages view, with the names its mentions point at. */}
              <MessageItem guildId={guildId} message={asShown(sent.message)} names={names} />
            </Paper>
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" loading={send.isPending}>
            {sent ? "Send another" : "Send"}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
