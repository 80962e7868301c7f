"use client";

import { Button, Group, Image, Modal, MultiSelect, Stack, Text, TextInput } from "@mantine/core";
import { useForm, type GetInputPropsReturnType } from "@mantine/form";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess } from "~/components/forms/server-errors.ts";
import { EMOJI_NAME_MAX, ZGuildEmojiCreateBodySchema, ZGuildEmojiModifyBodySchema } from "~/server/emojis/emoji.schema.ts";
import { api } from "~/trpc/react.tsx";
import { ExpressionFileField } from "./expression-file-field.tsx";
import { EMOJI_FILE, emojiImageUrl, nameFromFile, type EmojiRow, type EmojiRows } from "./expression-values.ts";

type Values = { image: string | null; name: string; roles: string[] };

const validateCreate = bodyValidator(ZGuildEmojiCreateBodySchema);
const validateModify = bodyValidator(ZGuildEmojiModifyBodySchema);
const NAME_HINT = `2 to ${EMOJI_NAME_MAX} letters, numbers and underscores. Members type it between colons.`;

function RolesField({ roles, inputProps }: { roles: EmojiRows["roles"]; inputProps: GetInputPropsReturnType }) {
  return (
    <MultiSelect
      label="Who can use it"
      description="Only members with one of these roles can use it. Leave empty for everyone."
      placeholder={(inputProps.value as string[]).length === 0 ? "Everyone" : undefined}
      data={roles.map((role) => ({ value: role.id, label: role.name }))}
      searchable
      clearable
      nothingFoundMessage="No role has that name"
      {...inputProps}
    />
  );
}

/** Uploading an emoji: its image, a name (checked as you type by the schema the service uses) and who may use it. */
export function UploadEmojiModal({ guildId, roles, opened, onClose }: { guildId: string; roles: EmojiRows["roles"]; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Upload emoji">
      {opened ? <UploadEmojiForm guildId={guildId} roles={roles} onClose={onClose} /> : null}
    </Modal>
  );
}

function UploadEmojiForm({ guildId, roles, onClose }: { guildId: string; roles: EmojiRows["roles"]; onClose: () => void }) {
  const utils = api.useUtils();
  const form = useForm<Values>({
    initialValues: { image: null, name: "", roles: [] },
    validate: (values) => ({
      ...validateCreate({ name: values.name, image: values.image ?? "", roles: values.roles }),
      ...(values.image ? {} : { image: "Choose an image to upload." }),
    }),
    validateInputOnChange: ["name"],
  });
  const feedback = useSaveFeedback(form, "Could not upload the emoji", () => ["image", "name", "roles"]);
  const create = api.emoji.create.useMutation({
    onSuccess: async (emoji) => {
      notifySuccess(`:${emoji.name}: can be used in this guild now.`, "Emoji uploaded");
      onClose();
      await utils.emoji.rows.invalidate({ guildId });
    },
    onError: (error) => feedback.onServerError(error),
  });

  return (
    <form
      ref={feedback.ref}
      onSubmit={form.onSubmit(
        (values) => create.mutate({ guildId, body: { name: values.name, image: values.image!, roles: values.roles } }),
        feedback.onInvalid,
      )}
      noValidate
    >
      <Stack gap="md">
        <ExpressionFileField
          label="Image"
          kind={EMOJI_FILE}
          value={form.values.image}
          error={typeof form.errors.image === "string" ? form.errors.image : null}
          onChange={(dataUri, file) => {
            form.setFieldValue("image", dataUri);
            form.clearFieldError("image");
            // Named after its file until the person names it.
            if (!form.values.name) form.setFieldValue("name", nameFromFile(file.name, "emoji"));
          }}
        />
        <TextInput label="Name" description={NAME_HINT} required maxLength={EMOJI_NAME_MAX} leftSection=":" rightSection=":" {...form.getInputProps("name")} />
        <RolesField roles={roles} inputProps={form.getInputProps("roles")} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Upload emoji
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Renaming an emoji and changing who may use it; its image never changes. */
export function EditEmojiModal({ guildId, roles, row, onClose }: { guildId: string; roles: EmojiRows["roles"]; row: EmojiRow | null; onClose: () => void }) {
  return (
    <Modal opened={row !== null} onClose={onClose} title={row ? `Edit :${row.emoji.name}:` : ""}>
      {row ? <EditEmojiForm key={row.emoji.id} guildId={guildId} roles={roles} row={row} onClose={onClose} /> : null}
    </Modal>
  );
}

function EditEmojiForm({ guildId, roles, row, onClose }: { guildId: string; roles: EmojiRows["roles"]; row: EmojiRow; onClose: () => void }) {
  const { emoji } = row;
  const utils = api.useUtils();
  const form = useForm({ initialValues: { name: emoji.name, roles: emoji.roles }, validate: validateModify, validateInputOnChange: ["name"] });
  const feedback = useSaveFeedback(form, "Could not save the emoji", () => ["name", "roles"]);
  const modify = api.emoji.modify.useMutation({
    onSuccess: async (updated) => {
      notifySuccess(`:${updated.name}: was saved.`, "Emoji saved");
      onClose();
      await utils.emoji.rows.invalidate({ guildId });
    },
    onError: (error) => feedback.onServerError(error),
  });
  const isRolesChanged = form.values.roles.length !== emoji.roles.length || form.values.roles.some((id) => !emoji.roles.includes(id));

  return (
    <form
      ref={feedback.ref}
      onSubmit={form.onSubmit(
        (values) =>
          modify.mutate({
            guildId,
            emojiId: emoji.id,
            body: { ...(values.name !== emoji.name && { name: values.name }), ...(isRolesChanged && { roles: values.roles }) },
          }),
        feedback.onInvalid,
      )}
      noValidate
    >
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <Image src={emojiImageUrl(emoji)} alt="" w={48} h={48} fit="contain" />
          <Text size="sm" c="dimmed">
            The image stays as uploaded. To use another, upload a new emoji.
          </Text>
        </Group>
        <TextInput
          label="Name"
          description={NAME_HINT}
          required
          maxLength={EMOJI_NAME_MAX}
          leftSection=":"
          rightSection=":"
          data-autofocus
          {...form.getInputProps("name")}
        />
        <RolesField roles={roles} inputProps={form.getInputProps("roles")} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={modify.isPending} disabled={form.values.name === emoji.name && !isRolesChanged}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
