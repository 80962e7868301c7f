"use client";

import { Alert, Avatar, Box, Button, Group, Modal, Paper, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { fieldErrorsOf, notifyFailure } from "~/components/forms/server-errors.ts";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import { MESSAGE_LIMITS } from "~/server/messages/message.schema.ts";
import { api } from "~/trpc/react.tsx";
import type { DashboardWebhook } from "./webhook-types.ts";
import { Time } from "~/components/time/time.tsx";

/** The embed fields the test message can carry. */
type SentEmbed = { title?: string; description?: string };

type Props = { channelName: string; webhook: DashboardWebhook | null; onClose: () => void };

/** Posts a small message through the webhook, as a service would, and shows what was posted. */
export function SendTestModal({ channelName, webhook, onClose }: Props) {
  return (
    <Modal opened={webhook !== null} onClose={onClose} title="Send a test message" size="lg">
      {webhook ? <SendTestForm key={webhook.id} channelName={channelName} webhook={webhook} onClose={onClose} /> : null}
    </Modal>
  );
}

function SendTestForm({ channelName, webhook, onClose }: { channelName: string; webhook: DashboardWebhook; onClose: () => void }) {
  const [content, setContent] = useState("Hello from the webhook!");
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const send = api.webhook.sendTest.useMutation({ onError: (error) => notifyFailure("Could not send the test message", error) });
  const errors = fieldErrorsOf(send.error);
  const sent = send.data;

  return (
    <form
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
        {sent ? (
          <Alert color="teal" variant="light" title="Message posted" role="status">
            <Paper withBorder p="sm" mt="xs" radius="md" aria-label="Posted message">
              <Group gap="sm" align="flex-start" wrap="nowrap">
                <Avatar
                  src={webhook.avatar ? cdnImageUrl("avatars", webhook.id, webhook.avatar) : null}
                  name={sent.author.username}
                  color="initials"
                  size="md"
                  alt=""
                />
                <Box miw={0}>
                  <Group gap="xs">
                    <Text size="sm" fw={600}>
                      {sent.author.username}
                    </Text>
                    <Text size="xs" c="dimmed">
                      <Time value={sent.timestamp} />
                    </Text>
                  </Group>
                  {sent.content ? (
                    <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                      {sent.content}
                    </Text>
                  ) : null}
                  {(sent.embeds as SentEmbed[]).map((embed, index) => (
                    <Box key={index} mt={6} pl="sm" style={{ borderLeft: "4px solid var(--mantine-color-default-border)" }}>
                      {embed.title ? (
                        <Text size="sm" fw={600}>
                          {embed.title}
                        </Text>
                      ) : null}
                      {embed.description ? (
                        <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                          {embed.description}
                        </Text>
                      ) : null}
                    </Box>
                  ))}
                </Box>
              </Group>
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
