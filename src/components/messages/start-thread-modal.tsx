"use client";

import { Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ARCHIVE_OPTIONS } from "~/components/channels/create-thread-modal.tsx";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess, type ApiClientError } from "~/components/forms/server-errors.ts";
import { CHANNEL_NAME_MAX } from "~/server/channels/channel.schema.ts";
import { DEFAULT_AUTO_ARCHIVE_DURATION, ZMessageThreadBodySchema } from "~/server/threads/thread.schema.ts";
import { api } from "~/trpc/react.tsx";
import type { DashboardMessage } from "./message-types.ts";

type Values = { name: string; auto_archive_duration: string };

const validateBody = bodyValidator(ZMessageThreadBodySchema);
const toBody = (values: Values) => ({ name: values.name, auto_archive_duration: Number(values.auto_archive_duration) });

/** Starting a public thread from a message: the thread takes the message's place at its head. */
export function StartThreadModal({ channelId, message, onClose }: { channelId: string; message: DashboardMessage | null; onClose: () => void }) {
  return (
    <Modal opened={message !== null} onClose={onClose} title="Start a thread">
      {message ? <StartThreadForm key={message.id} channelId={channelId} message={message} onClose={onClose} /> : null}
    </Modal>
  );
}

function StartThreadForm({ channelId, message, onClose }: { channelId: string; message: DashboardMessage; onClose: () => void }) {
  const utils = api.useUtils();
  const form = useForm<Values>({
    // The platform's client names the thread after the message, as far as a name may go.
    initialValues: { name: message.content.slice(0, CHANNEL_NAME_MAX).trim(), auto_archive_duration: String(DEFAULT_AUTO_ARCHIVE_DURATION) },
    validate: (values) => validateBody(toBody(values)),
    validateInputOnChange: ["name"],
  });
  const feedback = useSaveFeedback(form, "Could not start the thread", () => ["name", "auto_archive_duration"]);
  const start = api.thread.startFromMessage.useMutation();
  const author = message.author.global_name ?? message.author.username;

  const submit = async (values: Values) => {
    try {
      const thread = await start.mutateAsync({ channelId, messageId: message.id, body: toBody(values) });
      notifySuccess(`${thread.name} was started from ${author}'s message.`, "Thread started");
      onClose();
      await Promise.all([utils.message.list.invalidate({ channelId }), utils.thread.invalidate()]);
    } catch (error) {
      feedback.onServerError(error as ApiClientError);
    }
  };

  return (
    <form ref={feedback.ref} onSubmit={form.onSubmit((values) => void submit(values), feedback.onInvalid)} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed" lineClamp={2}>
          From {author}&apos;s message{message.content ? `: ${message.content}` : "."}
        </Text>
        <TextInput label="Thread name" required maxLength={CHANNEL_NAME_MAX} data-autofocus {...form.getInputProps("name")} />
        <Select
          label="Auto-archive after"
          description="Time without activity after which the thread is archived."
          data={ARCHIVE_OPTIONS}
          allowDeselect={false}
          {...form.getInputProps("auto_archive_duration")}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={start.isPending}>
            Start thread
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
