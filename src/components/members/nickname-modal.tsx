"use client";

import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { z } from "zod";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess } from "~/components/forms/server-errors.ts";
import { NICK_MAX, ZNickSchema } from "~/server/members/member.schema.ts";
import { api } from "~/trpc/react.tsx";
import { displayName, type MemberObject } from "./member-display.ts";
import { useMemberRefresh } from "./use-member-refresh.ts";

const validateNick = bodyValidator(z.object({ nick: ZNickSchema }));

type Props = { guildId: string; member: MemberObject | null; opened: boolean; onClose: () => void };

export function NicknameModal({ guildId, member, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Change nickname">
      {member ? <NicknameForm key={member.user.id} guildId={guildId} member={member} onClose={onClose} /> : null}
    </Modal>
  );
}

function NicknameForm({ guildId, member, onClose }: { guildId: string; member: MemberObject; onClose: () => void }) {
  const refresh = useMemberRefresh(guildId);
  const form = useForm({ initialValues: { nick: member.nick ?? "" }, validate: validateNick, validateInputOnChange: true });
  const feedback = useSaveFeedback(form, "Could not change the nickname", () => ["nick"]);
  const modify = api.member.modify.useMutation({
    onSuccess: async (updated) => {
      notifySuccess(`They now show as ${displayName(updated)}.`, "Nickname saved");
      onClose();
      await refresh();
    },
    onError: (error) => feedback.onServerError(error),
  });
  const accountName = member.user.global_name ?? member.user.username;

  return (
    <form
      ref={feedback.ref}
      onSubmit={form.onSubmit(
        (values) => modify.mutate({ guildId, userId: member.user.id, body: { nick: values.nick.trim() === "" ? null : values.nick } }),
        feedback.onInvalid,
      )}
      noValidate
    >
      <Stack gap="md">
        <TextInput
          label="Nickname"
          description={`Shown in this guild instead of ${accountName}. Leave empty to reset it.`}
          placeholder={accountName}
          maxLength={NICK_MAX}
          data-autofocus
          {...form.getInputProps("nick")}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={modify.isPending}>
            Save nickname
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
