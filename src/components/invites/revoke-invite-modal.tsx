"use client";

import { Modal, Text } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { ReasonConfirm } from "~/components/members/reason-input.tsx";
import { api } from "~/trpc/react.tsx";
import type { InviteRow } from "./invite-options.ts";

type Props = { guildId: string; invite: InviteRow | null; opened: boolean; onClose: () => void };

export function RevokeInviteModal({ guildId, invite, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Revoke invite">
      {invite ? <RevokeForm key={invite.code} guildId={guildId} invite={invite} onClose={onClose} /> : null}
    </Modal>
  );
}

function RevokeForm({ guildId, invite, onClose }: { guildId: string; invite: InviteRow; onClose: () => void }) {
  const utils = api.useUtils();
  const revoke = api.invite.revoke.useMutation({
    onSuccess: async () => {
      notifySuccess(`Nobody can join with ${invite.code} any more.`, "Invite revoked");
      onClose();
      await utils.invite.list.invalidate({ guildId });
    },
    onError: (error) => notifyFailure(`Could not revoke ${invite.code}`, error),
  });
  return (
    <ReasonConfirm
      confirmLabel={`Revoke ${invite.code}`}
      loading={revoke.isPending}
      onCancel={onClose}
      onConfirm={(reason) => revoke.mutate({ code: invite.code, reason })}
    >
      <Text size="sm">
        Revoke the invite <b>{invite.code}</b> to #{invite.channel.name}? Its link stops working at once; members who joined with it stay.
      </Text>
    </ReasonConfirm>
  );
}
