"use client";

import { Button, Group, Modal, Stack, Textarea, TextInput } from "@mantine/core";
import { schemaResolver, useForm } from "@mantine/form";
import { useState } from "react";
import { applyFieldErrors, notifyFailure } from "~/components/forms/server-errors.ts";
import { APPLICATION_DESCRIPTION_MAX, APPLICATION_NAME_MAX, ZApplicationCreateBodySchema } from "~/server/applications/application.schema.ts";
import { api } from "~/trpc/react.tsx";
import { BotTokenReveal } from "./bot-token-reveal.tsx";

type Values = { name: string; description: string };

/** Creates an application and its bot, then shows the bot's first token once. */
export function CreateApplicationModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const utils = api.useUtils();
  const [created, setCreated] = useState<{ name: string; botToken: string } | null>(null);
  const form = useForm<Values>({
    initialValues: { name: "", description: "" },
    validate: schemaResolver(ZApplicationCreateBodySchema, { sync: true }),
    validateInputOnBlur: true,
  });
  const create = api.application.create.useMutation({
    onSuccess: async ({ application, botToken }) => {
      setCreated({ name: application.name, botToken });
      await utils.application.list.invalidate();
    },
    onError: (error) => {
      const unplaced = applyFieldErrors(form, error, ["name", "description"]);
      if (unplaced) notifyFailure("Could not create the application", unplaced);
    },
  });

  // Closing forgets the token: it exists nowhere else in plain text.
  function close() {
    form.reset();
    create.reset();
    setCreated(null);
    onClose();
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? `${created.name} is ready: its bot token` : "Create an application"}
      size="lg"
      closeOnClickOutside={!created}
    >
      {created ? (
        <BotTokenReveal token={created.botToken} onDone={close} />
      ) : (
        <form
          onSubmit={form.onSubmit((values) => create.mutate({ name: values.name, ...(values.description.trim() ? { description: values.description } : {}) }))}
          noValidate
        >
          <Stack gap="md">
            <TextInput
              label="Name"
              description={`What players and guilds see. 1 to ${APPLICATION_NAME_MAX} characters.`}
              placeholder="My game"
              required
              maxLength={APPLICATION_NAME_MAX}
              data-autofocus
              {...form.getInputProps("name")}
            />
            <Textarea
              label="Description"
              description={`Optional. Up to ${APPLICATION_DESCRIPTION_MAX} characters.`}
              autosize
              minRows={2}
              maxRows={6}
              maxLength={APPLICATION_DESCRIPTION_MAX}
              {...form.getInputProps("description")}
            />
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create application
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
