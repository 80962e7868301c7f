"use client";

import { Button, Checkbox, ColorSwatch, Group, Modal, ScrollArea, Skeleton, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { QueryError } from "~/components/query-error.tsx";
import { colorToHex } from "~/components/roles/role-values.ts";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { displayName, type MemberObject } from "./member-display.ts";
import { useMemberRefresh } from "./use-member-refresh.ts";

type Details = RouterOutputs["member"]["get"];

type Props = { guildId: string; member: MemberObject | null; opened: boolean; onClose: () => void };

export function MemberRolesModal({ guildId, member, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={member ? `Roles of ${displayName(member)}` : "Roles"}>
      {member ? <RolesLoader key={member.user.id} guildId={guildId} userId={member.user.id} onClose={onClose} /> : null}
    </Modal>
  );
}

function RolesLoader({ guildId, userId, onClose }: { guildId: string; userId: string; onClose: () => void }) {
  // Fresh on open: which roles the viewer may give depends on the hierarchy now.
  const details = api.member.get.useQuery({ guildId, userId }, { staleTime: 0 });
  if (details.isError) return <QueryError error={details.error} onRetry={() => void details.refetch()} title="Could not load the member's roles" />;
  if (details.isPending)
    return (
      <Stack gap="sm" role="status" aria-busy="true" aria-label="Loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={20} width={`${70 - i * 15}%`} />
        ))}
      </Stack>
    );
  return <RolesForm guildId={guildId} details={details.data} onClose={onClose} />;
}

function RolesForm({ guildId, details, onClose }: { guildId: string; details: Details; onClose: () => void }) {
  const refresh = useMemberRefresh(guildId);
  const initial = details.roles.filter((role) => role.held).map((role) => role.id);
  const [selected, setSelected] = useState<string[]>(initial);
  const changed = selected.length !== initial.length || selected.some((id) => !initial.includes(id));
  const modify = api.member.modify.useMutation({
    onSuccess: async (updated) => {
      notifySuccess(`${displayName(updated)} now has ${updated.roles.length} ${updated.roles.length === 1 ? "role" : "roles"}.`, "Roles saved");
      onClose();
      await refresh();
    },
    onError: (error) => notifyFailure("Could not change the roles", error),
  });

  return (
    <Stack gap="md">
      {details.roles.length === 0 ? (
        <Text size="sm" c="dimmed">
          This guild has no roles besides @everyone. Create some on the Roles page.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={380} type="auto" offsetScrollbars>
          <Checkbox.Group
            value={selected}
            onChange={setSelected}
            label="Roles"
            description={details.roles.some((role) => role.disabledReason) ? "Roles you can't give or take are greyed out with the reason." : undefined}
          >
            <Stack gap="sm" mt="sm">
              {details.roles.map((role) => (
                <Checkbox
                  key={role.id}
                  value={role.id}
                  disabled={role.disabledReason !== null}
                  description={role.disabledReason}
                  label={
                    <span style={{ display: "inline-flex", alignItems: "center", gap: 8 }}>
                      <ColorSwatch component="span" color={colorToHex(role.color) || "var(--mantine-color-gray-5)"} size={12} withShadow={false} aria-hidden />
                      {role.name}
                    </span>
                  }
                />
              ))}
            </Stack>
          </Checkbox.Group>
        </ScrollArea.Autosize>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          disabled={!changed}
          loading={modify.isPending}
          onClick={() => modify.mutate({ guildId, userId: details.member.user.id, body: { roles: selected } })}
        >
          Save roles
        </Button>
      </Group>
    </Stack>
  );
}
