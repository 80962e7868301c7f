"use client";

import { Button, Group, Stack, Text, Textarea } from "@mantine/core";
import { useState } from "react";
import { bodyValidator } from "~/components/forms/save-feedback.ts";
import { fieldErrorsOf, notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { MESSAGE_LIMITS, ZEditMessageBodySchema } from "~/server/messages/message.schema.ts";
import { api } from "~/trpc/react.tsx";
import type { DashboardMessage } from "./message-types.ts";

const validateBody = bodyValidator(ZEditMessageBodySchema.pick({ content: true }));

/** The user's own message's text, edited where it stands: Enter saves, Escape cancels. */
export function MessageEditor({ channelId, message, onDone }: { channelId: string; message: DashboardMessage; onDone: () => void }) {
  const utils = api.useUtils();
  const [content, setContent] = useState(message.content);
  const edit = api.message.edit.useMutation({
    onSuccess: async () => {
      notifySuccess("Everyone sees the new text.", "Message edited");
      onDone();
      await utils.message.list.invalidate({ channelId });
    },
    onError: (error) => {
      if (!fieldErrorsOf(error).content) notifyFailure("Could not edit the message", error);
    },
  });
  const error = validateBody({ content }).content ?? fieldErrorsOf(edit.error).content;
  const save = () => {
    if (error) return;
    if (content === message.content) return onDone();
    edit.mutate({ channelId, messageId: message.id, body: { content } });
  };

  return (
    <Stack gap={6}>
      <Textarea
        aria-label="Edit the message"
        autosize
        minRows={1}
        maxRows={8}
        maxLength={MESSAGE_LIMITS.content}
        value={content}
        error={error}
        data-autofocus
        autoFocus
        onChange={(event) => setContent(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onDone();
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            save();
          }
        }}
      />
      <Group gap="xs">
        <Button size="compact-xs" onClick={save} loading={edit.isPending} disabled={Boolean(error) || content.trim() === ""}>
          Save
        </Button>
        <Button size="compact-xs" variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Text size="xs" c="dimmed" visibleFrom="sm">
          Enter to save, Escape to cancel
        </Text>
      </Group>
    </Stack>
  );
}
