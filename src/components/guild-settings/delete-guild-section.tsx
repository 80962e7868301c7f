"use client";

import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconTrash } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { api } from "~/trpc/react.tsx";

/** Deleting a guild is permanent, so the owner types its name to confirm. */
export function DeleteGuildSection({ guild, denial }: { guild: { id: string; name: string }; denial: string | null }) {
  const router = useRouter();
  const utils = api.useUtils();
  const [opened, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState("");
  const remove = api.guild.delete.useMutation({
    onSuccess: async () => {
      notifySuccess(`${guild.name} was deleted.`, "Guild deleted");
      close();
      await utils.guild.list.invalidate();
      router.replace("/");
    },
    onError: (error) => notifyFailure("Could not delete the guild", error),
  });

  return (
    <SectionCard title="Danger zone" id="danger">
      <Group justify="space-between" wrap="wrap" gap="md">
        <div>
          <Text fw={500}>Delete this guild</Text>
          <Text size="sm" c="dimmed">
            {denial ?? "Removes the guild with all its channels, roles and members. This cannot be undone."}
          </Text>
        </div>
        <Button color="red" variant="light" leftSection={<IconTrash size={16} />} disabled={denial !== null} onClick={open}>
          Delete guild
        </Button>
      </Group>
      <Modal
        opened={opened}
        onClose={() => {
          setTyped("");
          close();
        }}
        title="Delete guild"
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (typed === guild.name) remove.mutate({ guildId: guild.id });
          }}
        >
          <Stack gap="md">
            <Text size="sm">
              This deletes <b>{guild.name}</b> for everyone, with all its channels and roles. It cannot be undone.
            </Text>
            <TextInput
              label="Type the guild name to confirm"
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" color="red" disabled={typed !== guild.name} loading={remove.isPending}>
                Delete guild
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </SectionCard>
  );
}
