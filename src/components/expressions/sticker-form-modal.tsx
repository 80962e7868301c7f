"use client";

import { Button, Group, Image, Modal, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess } from "~/components/forms/server-errors.ts";
import {
  STICKER_DESCRIPTION_MAX,
  STICKER_NAME_MAX,
  STICKER_TAGS_MAX,
  ZStickerFieldsSchema,
  ZStickerModifyBodySchema,
  type TStickerModifyBody,
} from "~/server/stickers/sticker.schema.ts";
import { api } from "~/trpc/react.tsx";
import { ExpressionFileField } from "./expression-file-field.tsx";
import { nameFromFile, STICKER_FILE, stickerImageUrl, type StickerRow } from "./expression-values.ts";

type Words = { name: string; tags: string; description: string };

const validateFields = bodyValidator(ZStickerFieldsSchema);
const validateModify = bodyValidator(ZStickerModifyBodySchema);

/** The name, tags and description inputs, shared by uploading and editing. */
function WordFields({ inputProps, autoFocus }: { inputProps: (field: keyof Words) => object; autoFocus?: boolean }) {
  return (
    <>
      <TextInput
        label="Name"
        description={`2 to ${STICKER_NAME_MAX} characters.`}
        required
        maxLength={STICKER_NAME_MAX}
        {...(autoFocus && { "data-autofocus": true })}
        {...inputProps("name")}
      />
      <TextInput
        label="Tags"
        description="Words or an emoji that suggest this sticker when members type them, such as 😄 or happy."
        required
        maxLength={STICKER_TAGS_MAX}
        {...inputProps("tags")}
      />
      <Textarea
        label="Description"
        description="Optional, up to 100 characters."
        autosize
        minRows={2}
        maxLength={STICKER_DESCRIPTION_MAX}
        {...inputProps("description")}
      />
    </>
  );
}

/** Uploading a sticker: a PNG, APNG or GIF file, its name, tags and description, checked by the schemas the service parses with. */
export function UploadStickerModal({ guildId, opened, onClose }: { guildId: string; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Upload sticker">
      {opened ? <UploadStickerForm guildId={guildId} onClose={onClose} /> : null}
    </Modal>
  );
}

function UploadStickerForm({ guildId, onClose }: { guildId: string; onClose: () => void }) {
  const utils = api.useUtils();
  const form = useForm<Words & { file: string | null }>({
    initialValues: { file: null, name: "", tags: "", description: "" },
    validate: (values) => ({
      ...validateFields({ name: values.name, tags: values.tags, description: values.description }),
      ...(values.file ? {} : { file: "Choose a file to upload." }),
    }),
    validateInputOnChange: ["name", "tags", "description"],
  });
  const feedback = useSaveFeedback(form, "Could not upload the sticker", () => ["file", "name", "tags", "description"]);
  const create = api.sticker.create.useMutation({
    onSuccess: async (sticker) => {
      notifySuccess(`${sticker.name} can be sent in this guild now.`, "Sticker uploaded");
      onClose();
      await utils.sticker.rows.invalidate({ guildId });
    },
    onError: (error) => feedback.onServerError(error),
  });

  return (
    <form
      ref={feedback.ref}
      onSubmit={form.onSubmit(({ file, ...words }) => create.mutate({ guildId, body: { ...words, file: file! } }), feedback.onInvalid)}
      noValidate
    >
      <Stack gap="md">
        <ExpressionFileField
          label="File"
          kind={STICKER_FILE}
          value={form.values.file}
          error={typeof form.errors.file === "string" ? form.errors.file : null}
          onChange={(dataUri, file) => {
            form.setFieldValue("file", dataUri);
            form.clearFieldError("file");
            if (!form.values.name) form.setFieldValue("name", nameFromFile(file.name, "sticker"));
          }}
        />
        <WordFields inputProps={(field) => form.getInputProps(field)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Upload sticker
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Editing a sticker's name, tags and description; its file never changes. */
export function EditStickerModal({ guildId, row, onClose }: { guildId: string; row: StickerRow | null; onClose: () => void }) {
  return (
    <Modal opened={row !== null} onClose={onClose} title={row ? `Edit ${row.sticker.name}` : ""}>
      {row ? <EditStickerForm key={row.sticker.id} guildId={guildId} row={row} onClose={onClose} /> : null}
    </Modal>
  );
}

/** Only what changed; an emptied description clears it. */
function changedWords(values: Words, sticker: StickerRow["sticker"]): TStickerModifyBody {
  return {
    ...(values.name !== sticker.name && { name: values.name }),
    ...(values.tags !== sticker.tags && { tags: values.tags }),
    ...(values.description !== (sticker.description ?? "") && { description: values.description }),
  };
}

function EditStickerForm({ guildId, row, onClose }: { guildId: string; row: StickerRow; onClose: () => void }) {
  const { sticker } = row;
  const utils = api.useUtils();
  const form = useForm<Words>({
    initialValues: { name: sticker.name, tags: sticker.tags, description: sticker.description ?? "" },
    validate: (values) => validateModify(changedWords(values, sticker)),
    validateInputOnChange: true,
  });
  const feedback = useSaveFeedback(form, "Could not save the sticker", () => ["name", "tags", "description"]);
  const modify = api.sticker.modify.useMutation({
    onSuccess: async (updated) => {
      notifySuccess(`${updated.name} was saved.`, "Sticker saved");
      onClose();
      await utils.sticker.rows.invalidate({ guildId });
    },
    onError: (error) => feedback.onServerError(error),
  });
  const body = changedWords(form.values, sticker);
  const image = stickerImageUrl(sticker);

  return (
    <form ref={feedback.ref} onSubmit={form.onSubmit(() => modify.mutate({ guildId, stickerId: sticker.id, body }), feedback.onInvalid)} noValidate>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          {image ? <Image src={image} alt="" w={64} h={64} fit="contain" /> : null}
          <Text size="sm" c="dimmed">
            The file stays as uploaded. To use another, upload a new sticker.
          </Text>
        </Group>
        <WordFields inputProps={(field) => form.getInputProps(field)} autoFocus />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={modify.isPending} disabled={Object.keys(body).length === 0}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
