"use client";

import { ActionIcon, Alert, Button, Group, Modal, Paper, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { schemaResolver, useForm } from "@mantine/form";
import { useState } from "react";
import { z } from "zod";
import { errorText, fieldErrorsOf, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconPlus, IconTrash } from "~/components/icons.tsx";
import {
  MODERATION_METADATA_KEY_MAX,
  MODERATION_METADATA_KEYS_MAX,
  MODERATION_METADATA_VALUE_MAX,
  ZModerationMetadataBodySchema,
} from "~/server/lobbies/lobby.schema.ts";
import { api } from "~/trpc/react.tsx";
import { userName, type LobbyMessage } from "./lobby-format.ts";

type Pair = { key: string; value: string };

// The REST body is a map; the form edits it as rows, with spec 8's limits per row, so each
// error shows on its own field. ZModerationMetadataBodySchema checks the map itself before sending.
const ZPairsFormSchema = z
  .object({
    pairs: z
      .array(
        z.object({
          key: z.string().max(MODERATION_METADATA_KEY_MAX, `At most ${MODERATION_METADATA_KEY_MAX} characters`),
          value: z.string().max(MODERATION_METADATA_VALUE_MAX, `At most ${MODERATION_METADATA_VALUE_MAX} characters`),
        }),
      )
      .max(MODERATION_METADATA_KEYS_MAX, `At most ${MODERATION_METADATA_KEYS_MAX} keys`),
  })
  .superRefine(({ pairs }, ctx) => {
    const seen = new Set<string>();
    pairs.forEach((pair, index) => {
      if (pair.key === "" && pair.value !== "") ctx.addIssue({ code: "custom", path: ["pairs", index, "key"], message: "Enter a key for this value" });
      if (pair.key !== "" && seen.has(pair.key)) ctx.addIssue({ code: "custom", path: ["pairs", index, "key"], message: "This key is already used above" });
      seen.add(pair.key);
    });
  });
const validatePairs = schemaResolver(ZPairsFormSchema, { sync: true });

/** Rows left fully blank are not sent. */
function toMetadata(pairs: readonly Pair[]): Record<string, string> {
  return Object.fromEntries(pairs.filter((pair) => pair.key !== "").map((pair) => [pair.key, pair.value]));
}

type Props = { applicationId: string; lobbyId: string; message: LobbyMessage | null; onClose: () => void };

/** Edits a lobby message's moderation metadata: up to five key/value pairs; none clears it. */
export function ModerationMetadataModal({ applicationId, lobbyId, message, onClose }: Props) {
  return (
    <Modal opened={message !== null} onClose={onClose} title="Moderation metadata" size="lg">
      {message ? <MetadataForm key={message.id} applicationId={applicationId} lobbyId={lobbyId} message={message} onClose={onClose} /> : null}
    </Modal>
  );
}

function MetadataForm({ applicationId, lobbyId, message, onClose }: Omit<Props, "message"> & { message: LobbyMessage }) {
  const utils = api.useUtils();
  const current = Object.entries(message.moderationMetadata ?? {}).map(([key, value]) => ({ key, value }));
  const form = useForm<{ pairs: Pair[] }>({
    initialValues: { pairs: current.length ? current : [{ key: "", value: "" }] },
    validate: validatePairs,
    validateInputOnChange: true,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const save = api.lobby.setModerationMetadata.useMutation({
    onSuccess: async () => {
      notifySuccess("Players' game clients received the update.", "Moderation metadata saved");
      onClose();
      await utils.lobby.messages.invalidate({ applicationId, lobbyId });
    },
    onError: (error) => {
      // Input errors name the map's keys (metadata.<key>); show them on that key's row.
      const errors = fieldErrorsOf(error, "metadata");
      let unplaced: string | null = null;
      for (const [key, text] of Object.entries(errors)) {
        const index = form.values.pairs.findIndex((pair) => pair.key === key);
        if (index >= 0) form.setFieldError(`pairs.${index}.key`, text);
        else unplaced ??= text;
      }
      setFailure(Object.keys(errors).length === 0 ? errorText(error) : unplaced);
    },
  });
  const pairs = form.values.pairs;
  const isFull = pairs.length >= MODERATION_METADATA_KEYS_MAX;

  const submit = form.onSubmit((values) => {
    const parsed = ZModerationMetadataBodySchema.safeParse(toMetadata(values.pairs));
    if (!parsed.success) {
      setFailure(parsed.error.issues[0]?.message ?? "These pairs are not valid moderation metadata.");
      return;
    }
    setFailure(null);
    save.mutate({ applicationId, lobbyId, messageId: message.id, metadata: parsed.data });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          On the message from <b>{userName(message.author)}</b>: up to {MODERATION_METADATA_KEYS_MAX} pairs your game reads, for example a verdict to hide the
          message. Saving replaces what is there; with no pairs it is cleared.
        </Text>
        <Text size="sm" c="dimmed" lineClamp={2} className="message-text">
          {message.content}
        </Text>
        {pairs.map((pair, index) => (
          <Paper key={index} withBorder p="sm" role="group" aria-label={`Pair ${index + 1}`}>
            <Group align="flex-start" wrap="nowrap" gap="xs">
              <Stack gap="xs" flex={1} miw={0}>
                <TextInput
                  label="Key"
                  description={`${pair.key.length} / ${MODERATION_METADATA_KEY_MAX}`}
                  data-autofocus={index === 0 ? true : undefined}
                  {...form.getInputProps(`pairs.${index}.key`)}
                />
                <Textarea
                  label="Value"
                  description={`${pair.value.length} / ${MODERATION_METADATA_VALUE_MAX}`}
                  autosize
                  minRows={1}
                  maxRows={6}
                  {...form.getInputProps(`pairs.${index}.value`)}
                />
              </Stack>
              <ActionIcon variant="subtle" color="red" mt={24} aria-label={`Remove pair ${index + 1}`} onClick={() => form.removeListItem("pairs", index)}>
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          </Paper>
        ))}
        <Group justify="space-between">
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPlus size={14} />}
            disabled={isFull}
            onClick={() => form.insertListItem("pairs", { key: "", value: "" })}
          >
            Add a pair
          </Button>
          <Text size="xs" c="dimmed">
            {pairs.length} of {MODERATION_METADATA_KEYS_MAX} pairs
          </Text>
        </Group>
        {form.errors.pairs ? (
          <Text size="sm" c="red">
            {form.errors.pairs}
          </Text>
        ) : null}
        {failure ? (
          <Alert color="red" variant="light" title="Not saved">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
