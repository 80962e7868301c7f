"use client";

import { Button, Group, Modal, Stack, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
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
    validate: bodyValidator(ZApplicationCreateBodySchema),
    validateInputOnBlur: true,
  });
  const feedback = useSaveFeedback(form, "Could not create the application", () => ["name", "description"]);
  const create = api.application.create.useMutation({
    onSuccess: async ({ application, botToken }) => {
      setCreated({ name: application.name, botToken });
      await utils.application.list.invalidate();
    },
    onError: (error) => feedback.onServerError(error),
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
          ref={feedback.ref}
          onSubmit={form.onSubmit(
            (values) => create.mutate({ name: values.name, ...(values.description.trim() ? { description: values.description } : {}) }),
            feedback.onInvalid,
          )}
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
