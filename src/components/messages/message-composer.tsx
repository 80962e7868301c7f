"use client";

import { Alert, Badge, Button, Card, CloseButton, FileButton, Group, Stack, Text, Textarea } from "@mantine/core";
import { useState } from "react";
import { bodyValidator } from "~/components/forms/save-feedback.ts";
import { fieldErrorsOf, notifyFailure } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconArrowBackUp, IconLock, IconPaperclip, IconSend } from "~/components/icons.tsx";
import { MAX_FILE_BYTES, MAX_FORM_FILES } from "~/server/http/http-types.ts";
import { MESSAGE_LIMITS, ZDashboardMessageBodySchema } from "~/server/messages/message.schema.ts";
import { api } from "~/trpc/react.tsx";
import type { ChannelMessagesPage } from "./message-types.ts";

const validateBody = bodyValidator(ZDashboardMessageBodySchema);

/** The message a reply answers, as the composer names it. */
type ReplyTarget = { id: string; authorName: string; preview: string };

type Props = {
  channelId: string;
  /** "#general", or a thread's name. */
  placeName: string;
  denials: Pick<ChannelMessagesPage["denials"], "send" | "attach" | "reply">;
  replyTo: ReplyTarget | null;
  onCancelReply: () => void;
};

function readDataUri(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read.`));
    reader.readAsDataURL(file);
  });
}

/** Posting as the signed-in user: text, files and a reply; where they may not post, why, instead of the box. */
export function MessageComposer({ channelId, placeName, denials, replyTo, onCancelReply }: Props) {
  const utils = api.useUtils();
  const [content, setContent] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [isReading, setReading] = useState(false);
  const send = api.message.send.useMutation({
    onSuccess: async () => {
      setContent("");
      setFiles([]);
      onCancelReply();
      await utils.message.list.invalidate({ channelId });
    },
    onError: (error) => {
      if (!fieldErrorsOf(error).content) notifyFailure("Could not send the message", error);
    },
  });

  if (denials.send) {
    return (
      <Alert color="gray" variant="light" icon={<IconLock size={18} />} title="You can't send messages here">
        {denials.send}
      </Alert>
    );
  }

  const contentError = validateBody({ content }).content ?? fieldErrorsOf(send.error).content;
  const isEmpty = content.trim() === "" && files.length === 0;
  const addFiles = (picked: File[]) => {
    const tooLarge = picked.find((file) => file.size > MAX_FILE_BYTES);
    const all = [...files, ...picked.filter((file) => file !== tooLarge)];
    setFileProblem(
      tooLarge ? `${tooLarge.name} is larger than 20 MB.` : all.length > MAX_FORM_FILES ? `A message can carry at most ${MAX_FORM_FILES} files.` : null,
    );
    setFiles(all.slice(0, MAX_FORM_FILES));
  };
  const submit = async () => {
    if (isEmpty || contentError || send.isPending) return;
    setReading(true);
    try {
      const data = await Promise.all(files.map(async (file) => ({ filename: file.name, data: await readDataUri(file) })));
      send.mutate({ channelId, body: { content, ...(replyTo && { message_reference: { message_id: replyTo.id } }) }, files: data });
    } catch (error) {
      notifyFailure("Could not read the files", error as Error);
    } finally {
      setReading(false);
    }
  };

  return (
    <Card
      withBorder
      padding="sm"
      component="form"
      aria-label="Post a message"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="xs">
        {replyTo ? (
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <Group gap={6} wrap="nowrap" miw={0}>
              <IconArrowBackUp size={14} />
              <Text size="xs" c="dimmed" truncate>
                Replying to <b>{replyTo.authorName}</b>: {replyTo.preview}
              </Text>
            </Group>
            <CloseButton size="sm" aria-label="Cancel the reply" onClick={onCancelReply} />
          </Group>
        ) : null}
        {replyTo && denials.reply ? (
          <Text size="xs" c="orange.8">
            {denials.reply}
          </Text>
        ) : null}
        <Textarea
          aria-label={`Message ${placeName}`}
          placeholder={`Message ${placeName}`}
          autosize
          minRows={2}
          maxRows={8}
          maxLength={MESSAGE_LIMITS.content}
          value={content}
          error={contentError}
          onChange={(event) => setContent(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Enter sends, as in a chat client; Shift+Enter starts a new line.
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void submit();
            }
          }}
        />
        {files.length > 0 ? (
          <Group gap={6} aria-label="Files to send" role="list">
            {files.map((file, index) => (
              <Badge
                key={`${file.name}-${index}`}
                role="listitem"
                variant="default"
                radius="sm"
                tt="none"
                fw={500}
                rightSection={<CloseButton size="xs" aria-label={`Remove ${file.name}`} onClick={() => setFiles(files.filter((_, i) => i !== index))} />}
              >
                {file.name}
              </Badge>
            ))}
          </Group>
        ) : null}
        {fileProblem ? (
          <Text size="xs" c="red.8">
            {fileProblem}
          </Text>
        ) : null}
        <Group justify="space-between" gap="xs">
          <FileButton onChange={addFiles} multiple inputProps={{ "aria-label": "Files to attach" }}>
            {(props) => (
              <GuardedAction label="Attach files" blockedReason={denials.attach} {...props}>
                <IconPaperclip size={18} />
              </GuardedAction>
            )}
          </FileButton>
          <Group gap="xs">
            <Text size="xs" c="dimmed" visibleFrom="sm">
              Enter to send, Shift+Enter for a new line
            </Text>
            <Button
              type="submit"
              size="xs"
              leftSection={<IconSend size={14} />}
              loading={send.isPending || isReading}
              disabled={isEmpty || Boolean(contentError) || Boolean(replyTo && denials.reply)}
            >
              Send
            </Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
