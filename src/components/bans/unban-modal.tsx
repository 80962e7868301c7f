"use client";

import { Modal, Text } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { ReasonConfirm } from "~/components/members/reason-input.tsx";
import { useMemberRefresh } from "~/components/members/use-member-refresh.ts";
import { api } from "~/trpc/react.tsx";
import { bannedName, type BanRow } from "./ban-display.ts";

type Props = { guildId: string; ban: BanRow | null; opened: boolean; onClose: () => void };

export function UnbanModal({ guildId, ban, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Unban user">
      {ban ? <UnbanForm key={ban.user.id} guildId={guildId} ban={ban} onClose={onClose} /> : null}
    </Modal>
  );
}

function UnbanForm({ guildId, ban, onClose }: { guildId: string; ban: BanRow; onClose: () => void }) {
  const refresh = useMemberRefresh(guildId);
  const name = bannedName(ban);
  const unban = api.member.unban.useMutation({
    onSuccess: async () => {
      notifySuccess(`${name} can join again with an invite.`, "User unbanned");
      onClose();
      await refresh();
    },
    onError: (error) => notifyFailure(`Could not unban ${name}`, error),
  });
  return (
    <ReasonConfirm
      confirmLabel={`Unban ${name}`}
      color="blue"
      loading={unban.isPending}
      onCancel={onClose}
      onConfirm={(reason) => unban.mutate({ guildId, userId: ban.user.id, reason })}
    >
      <Text size="sm">
        Unban <b>{name}</b> (@{ban.user.username})? They can rejoin with an invite.
        {ban.reason ? ` They were banned for: “${ban.reason}”.` : null}
      </Text>
    </ReasonConfirm>
  );
}
