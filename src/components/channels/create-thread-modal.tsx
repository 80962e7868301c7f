"use client";

import { Button, Group, Modal, SegmentedControl, Select, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ChannelType } from "discord-api-types/v10";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess, type ApiClientError } from "~/components/forms/server-errors.ts";
import { CHANNEL_NAME_MAX } from "~/server/channels/channel.schema.ts";
import { DEFAULT_AUTO_ARCHIVE_DURATION, ZThreadCreateBodySchema, type TThreadCreateBody } from "~/server/threads/thread.schema.ts";
import { api } from "~/trpc/react.tsx";

/** The channel a thread is started in, and which kinds the user may start there. */
export type ThreadParentChoice = { id: string; name: string; type: number; canCreatePublic: boolean; canCreatePrivate: boolean };

type Values = { name: string; type: string; auto_archive_duration: string; invitable: boolean };

export const ARCHIVE_OPTIONS = [
  { value: "60", label: "1 hour" },
  { value: "1440", label: "24 hours" },
  { value: "4320", label: "3 days" },
  { value: "10080", label: "1 week" },
];

const validateBody = bodyValidator(ZThreadCreateBodySchema);

function toBody(values: Values, isAnnouncement: boolean): TThreadCreateBody {
  const type = isAnnouncement ? ChannelType.AnnouncementThread : Number(values.type);
  return {
    name: values.name,
    type,
    auto_archive_duration: Number(values.auto_archive_duration),
    ...(type === ChannelType.PrivateThread && { invitable: values.invitable }),
  };
}

export function CreateThreadModal({ guildId, parent, onClose }: { guildId: string; parent: ThreadParentChoice | null; onClose: () => void }) {
  return (
    <Modal opened={parent !== null} onClose={onClose} title="Start a thread">
      {parent ? <CreateThreadForm key={parent.id} guildId={guildId} parent={parent} onClose={onClose} /> : null}
    </Modal>
  );
}

function CreateThreadForm({ guildId, parent, onClose }: { guildId: string; parent: ThreadParentChoice; onClose: () => void }) {
  const isAnnouncement = parent.type === ChannelType.GuildAnnouncement;
  const utils = api.useUtils();
  const form = useForm<Values>({
    initialValues: {
      name: "",
      type: String(parent.canCreatePublic ? ChannelType.PublicThread : ChannelType.PrivateThread),
      auto_archive_duration: String(DEFAULT_AUTO_ARCHIVE_DURATION),
      invitable: true,
    },
    validate: (values) => validateBody(toBody(values, isAnnouncement)),
    validateInputOnBlur: ["name"],
  });
  const feedback = useSaveFeedback(form, "Could not start the thread", () => ["name", "type", "auto_archive_duration", "invitable"]);
  const create = api.thread.create.useMutation();
  const isPrivate = !isAnnouncement && form.values.type === String(ChannelType.PrivateThread);

  const submit = async (values: Values) => {
    try {
      const thread = await create.mutateAsync({ channelId: parent.id, body: toBody(values, isAnnouncement) });
      notifySuccess(`${thread.name} was started in #${parent.name}.`, "Thread started");
      onClose();
      await utils.thread.list.invalidate({ guildId });
    } catch (error) {
      feedback.onServerError(error as ApiClientError);
    }
  };

  return (
    <form ref={feedback.ref} onSubmit={form.onSubmit((values) => void submit(values), feedback.onInvalid)} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          In #{parent.name}. {isAnnouncement ? "Threads of announcement channels are open to everyone who can see the channel." : null}
        </Text>
        <TextInput label="Thread name" required maxLength={CHANNEL_NAME_MAX} data-autofocus {...form.getInputProps("name")} />
        {isAnnouncement ? null : (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="thread-kind-label">
              Who can see it
            </Text>
            <SegmentedControl
              aria-labelledby="thread-kind-label"
              data={[
                { value: String(ChannelType.PublicThread), label: "Public", disabled: !parent.canCreatePublic },
                { value: String(ChannelType.PrivateThread), label: "Private", disabled: !parent.canCreatePrivate },
              ]}
              {...form.getInputProps("type")}
            />
            <Text size="xs" c="dimmed">
              {isPrivate ? "Only people added to it, and those who manage threads." : "Everyone who can see the channel."}
              {!parent.canCreatePublic || !parent.canCreatePrivate
                ? ` You can't start ${parent.canCreatePublic ? "private" : "public"} threads here (needs Create ${parent.canCreatePublic ? "Private" : "Public"} Threads).`
                : null}
            </Text>
          </Stack>
        )}
        <Select
          label="Auto-archive after"
          description="Time without activity after which the thread is archived."
          data={ARCHIVE_OPTIONS}
          allowDeselect={false}
          {...form.getInputProps("auto_archive_duration")}
        />
        {isPrivate ? <Switch label="Members can invite others" {...form.getInputProps("invitable", { type: "checkbox" })} /> : null}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Start thread
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
