"use client";

import { Modal, Text } from "@mantine/core";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { api } from "~/trpc/react.tsx";
import { displayName, type MemberObject } from "./member-display.ts";
import { DeleteHistorySelect } from "./delete-history-select.tsx";
import { ReasonConfirm } from "./reason-input.tsx";
import { useMemberRefresh } from "./use-member-refresh.ts";

type Props = { guildId: string; member: MemberObject | null; opened: boolean; onClose: () => void };

export function KickModal({ guildId, member, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Kick member">
      {member ? <KickForm key={member.user.id} guildId={guildId} member={member} onClose={onClose} /> : null}
    </Modal>
  );
}

function KickForm({ guildId, member, onClose }: { guildId: string; member: MemberObject; onClose: () => void }) {
  const refresh = useMemberRefresh(guildId);
  const name = displayName(member);
  const kick = api.member.kick.useMutation({
    onSuccess: async () => {
      notifySuccess(`${name} was removed from the guild.`, "Member kicked");
      onClose();
      await refresh();
    },
    onError: (error) => notifyFailure(`Could not kick ${name}`, error),
  });
  return (
    <ReasonConfirm
      confirmLabel={`Kick ${name}`}
      loading={kick.isPending}
      onCancel={onClose}
      onConfirm={(reason) => kick.mutate({ guildId, userId: member.user.id, reason })}
    >
      <Text size="sm">
        Kick <b>{name}</b> (@{member.user.username})? They lose their roles and can join again with an invite.
      </Text>
    </ReasonConfirm>
  );
}

export function BanModal({ guildId, member, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Ban member">
      {member ? <BanForm key={member.user.id} guildId={guildId} member={member} onClose={onClose} /> : null}
    </Modal>
  );
}

function BanForm({ guildId, member, onClose }: { guildId: string; member: MemberObject; onClose: () => void }) {
  const refresh = useMemberRefresh(guildId);
  const name = displayName(member);
  const [deleteSeconds, setDeleteSeconds] = useState("0");
  const ban = api.member.ban.useMutation({
    onSuccess: async () => {
      notifySuccess(`${name} was banned and can't rejoin until unbanned.`, "Member banned");
      onClose();
      await refresh();
    },
    onError: (error) => notifyFailure(`Could not ban ${name}`, error),
  });
  return (
    <ReasonConfirm
      confirmLabel={`Ban ${name}`}
      loading={ban.isPending}
      onCancel={onClose}
      onConfirm={(reason) => ban.mutate({ guildId, userId: member.user.id, deleteMessageSeconds: Number(deleteSeconds), reason })}
    >
      <Text size="sm">
        Ban <b>{name}</b> (@{member.user.username})? They are removed and can&apos;t rejoin until unbanned on the Bans page.
      </Text>
      <DeleteHistorySelect value={deleteSeconds} onChange={setDeleteSeconds} />
    </ReasonConfirm>
  );
}
