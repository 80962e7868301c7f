"use client";

import { List, Modal, Stack, Text } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { ReasonConfirm } from "~/components/members/reason-input.tsx";
import { api } from "~/trpc/react.tsx";
import { removalEffects, type IntegrationRow } from "./integration-display.ts";

type Props = { guildId: string; integration: IntegrationRow | null; opened: boolean; onClose: () => void };

export function RemoveIntegrationModal({ guildId, integration, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Remove integration">
      {integration ? <RemoveForm key={integration.id} guildId={guildId} integration={integration} onClose={onClose} /> : null}
    </Modal>
  );
}

function RemoveForm({ guildId, integration, onClose }: { guildId: string; integration: IntegrationRow; onClose: () => void }) {
  const utils = api.useUtils();
  // The managed role's name, from the roles the guild layout already loaded.
  const roles = api.role.list.useQuery({ guildId }, { enabled: Boolean(integration.role_id) });
  const roleName = roles.data?.find((role) => role.id === integration.role_id)?.name ?? null;
  const remove = api.integration.remove.useMutation({
    onSuccess: async () => {
      notifySuccess(`${integration.name} is no longer connected to this guild.`, "Integration removed");
      onClose();
      await Promise.all([
        utils.integration.list.invalidate({ guildId }),
        utils.command.guild.invalidate({ guildId }),
        utils.member.invalidate(),
        utils.role.invalidate(),
      ]);
    },
    onError: (error) => notifyFailure(`Could not remove ${integration.name}`, error),
  });
  return (
    <ReasonConfirm
      confirmLabel="Remove integration"
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={(reason) => remove.mutate({ guildId, integrationId: integration.id, reason })}
    >
      <Stack gap="xs">
        <Text size="sm">
          Remove <b>{integration.name}</b> from this guild?
        </Text>
        <List size="sm" spacing={4}>
          {removalEffects(integration, roleName).map((effect) => (
            <List.Item key={effect}>{effect}</List.Item>
          ))}
        </List>
      </Stack>
    </ReasonConfirm>
  );
}
