"use client";

import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useRouter } from "next/navigation";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess } from "~/components/forms/server-errors.ts";
import { ImageField } from "~/components/forms/image-field.tsx";
import { GUILD_NAME_MAX, ZGuildCreateBodySchema } from "~/server/guilds/guild.schema.ts";
import { api } from "~/trpc/react.tsx";

type Values = { name: string; icon: string | null | undefined };

export function CreateGuildModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const router = useRouter();
  const utils = api.useUtils();
  const form = useForm<Values>({
    initialValues: { name: "", icon: undefined },
    validate: bodyValidator(ZGuildCreateBodySchema),
    validateInputOnBlur: true,
  });
  const feedback = useSaveFeedback(form, "Could not create the guild", () => ["name", "icon"]);
  const create = api.guild.create.useMutation({
    onSuccess: async (guild) => {
      notifySuccess(`${guild.name} is ready.`, "Guild created");
      await utils.guild.list.invalidate();
      close();
      router.push(`/guilds/${guild.id}`);
    },
    onError: (error) => feedback.onServerError(error),
  });

  function close() {
    form.reset();
    create.reset();
    onClose();
  }

  return (
    <Modal opened={opened} onClose={close} title="Create a guild" size="lg">
      <form
        ref={feedback.ref}
        onSubmit={form.onSubmit((values) => create.mutate({ name: values.name, ...(values.icon ? { icon: values.icon } : {}) }), feedback.onInvalid)}
        noValidate
      >
        <Stack gap="md">
          <TextInput label="Guild name" placeholder="My community" required maxLength={GUILD_NAME_MAX} data-autofocus {...form.getInputProps("name")} />
          <ImageField
            label="Icon"
            description="Optional. Square images look best."
            shape="square"
            currentUrl={null}
            value={form.values.icon}
            onChange={(value) => form.setFieldValue("icon", value)}
            error={form.errors.icon}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create guild
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
