"use client";

import { Button, Group, Modal, MultiSelect, Select, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useForm, type FormErrors } from "@mantine/form";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess, type ApiClientError } from "~/components/forms/server-errors.ts";
import { CHANNEL_NAME_MAX } from "~/server/channels/channel.schema.ts";
import { MESSAGE_LIMITS } from "~/server/messages/message.schema.ts";
import { APPLIED_TAGS_MAX, DEFAULT_AUTO_ARCHIVE_DURATION, ZThreadCreateBodySchema, type TThreadCreateBody } from "~/server/threads/thread.schema.ts";
import { api } from "~/trpc/react.tsx";
import { ARCHIVE_OPTIONS } from "./create-thread-modal.tsx";

/** The forum or media channel a post is made in: its tags, and whether the user may apply the moderated ones. */
export type PostParentChoice = {
  id: string;
  name: string;
  canUseModeratedTags: boolean;
  requiresTag: boolean;
  tags: readonly { id: string; name: string; moderated: boolean }[];
};

type Values = { name: string; content: string; applied_tags: string[]; auto_archive_duration: string };

const validateBody = bodyValidator(ZThreadCreateBodySchema);

function toBody(values: Values): TThreadCreateBody {
  return {
    name: values.name,
    auto_archive_duration: Number(values.auto_archive_duration),
    applied_tags: values.applied_tags,
    message: { content: values.content },
  };
}

/** The schema's errors on the form's fields: the first message's content is the form's `content`. */
function validate(values: Values): FormErrors {
  const errors: FormErrors = {};
  for (const [path, message] of Object.entries(validateBody(toBody(values)))) errors[path === "message.content" ? "content" : path] = message;
  // The dashboard's post says something: the platform refuses an empty first message.
  if (!values.content.trim()) errors.content ??= "Write the post's first message.";
  return errors;
}

export function CreatePostModal({ guildId, parent, onClose }: { guildId: string; parent: PostParentChoice | null; onClose: () => void }) {
  return (
    <Modal opened={parent !== null} onClose={onClose} title="New post">
      {parent ? <CreatePostForm key={parent.id} guildId={guildId} parent={parent} onClose={onClose} /> : null}
    </Modal>
  );
}

function CreatePostForm({ guildId, parent, onClose }: { guildId: string; parent: PostParentChoice; onClose: () => void }) {
  const utils = api.useUtils();
  const form = useForm<Values>({
    initialValues: { name: "", content: "", applied_tags: [], auto_archive_duration: String(DEFAULT_AUTO_ARCHIVE_DURATION) },
    validate,
    validateInputOnBlur: ["name"],
  });
  const feedback = useSaveFeedback(form, "Could not create the post", () => ["name", "content", "applied_tags", "auto_archive_duration", "message"]);
  const create = api.thread.create.useMutation();
  const tagOptions = parent.tags.map((tag) => ({
    value: tag.id,
    label: tag.moderated && !parent.canUseModeratedTags ? `${tag.name} (moderators only)` : tag.name,
    disabled: tag.moderated && !parent.canUseModeratedTags,
  }));

  const submit = async (values: Values) => {
    try {
      const post = await create.mutateAsync({ channelId: parent.id, body: toBody(values) });
      notifySuccess(`${post.name} was posted in #${parent.name}.`, "Post created");
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
          In #{parent.name}. Everyone who can see the channel can read and reply.
        </Text>
        <TextInput label="Title" required maxLength={CHANNEL_NAME_MAX} data-autofocus {...form.getInputProps("name")} />
        <Textarea label="Message" required autosize minRows={3} maxRows={10} maxLength={MESSAGE_LIMITS.content} {...form.getInputProps("content")} />
        {parent.tags.length > 0 ? (
          <MultiSelect
            label="Tags"
            description={`Up to ${APPLIED_TAGS_MAX}.${parent.requiresTag ? " This channel requires at least one." : ""}`}
            data={tagOptions}
            placeholder="Pick tags"
            maxValues={APPLIED_TAGS_MAX}
            searchable
            clearable
            nothingFoundMessage="No such tag"
            {...form.getInputProps("applied_tags")}
          />
        ) : null}
        <Select
          label="Auto-archive after"
          description="Time without activity after which the post is archived."
          data={ARCHIVE_OPTIONS}
          allowDeselect={false}
          {...form.getInputProps("auto_archive_duration")}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Post
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
