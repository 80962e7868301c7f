"use client";

import { Alert, Button, Group, Loader, Modal, MultiSelect, NumberInput, Progress, Stack, Text } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconCheck } from "~/components/icons.tsx";
import { PRUNE_DAYS_DEFAULT, PRUNE_DAYS_MAX, PRUNE_DAYS_MIN, ZPruneInputSchema, type TPruneInput } from "~/server/members/member.schema.ts";
import { api } from "~/trpc/react.tsx";
import type { RoleLabel } from "./member-identity.tsx";
import { ReasonInput } from "./reason-input.tsx";
import { useMemberRefresh } from "./use-member-refresh.ts";

type Props = { guildId: string; roles: readonly RoleLabel[]; opened: boolean; onClose: () => void };

export function PruneModal({ guildId, roles, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Prune inactive members" size="lg">
      {opened ? <PruneForm guildId={guildId} roles={roles} onClose={onClose} /> : null}
    </Modal>
  );
}

const membersText = (count: number) => `${count.toLocaleString("en-US")} ${count === 1 ? "member" : "members"}`;

function PruneForm({ guildId, roles, onClose }: Omit<Props, "opened">) {
  const refresh = useMemberRefresh(guildId);
  const [days, setDays] = useState<number | string>(PRUNE_DAYS_DEFAULT);
  const [includeRoles, setIncludeRoles] = useState<string[]>([]);
  const [reason, setReason] = useState("");
  const [removed, setRemoved] = useState<number | null>(null);

  const parsed = ZPruneInputSchema.safeParse({ days: Number(days), include_roles: includeRoles });
  // Debounced by value (a string), so typing counts once it settles.
  const inputKey = parsed.success ? JSON.stringify(parsed.data) : null;
  const [settledKey] = useDebouncedValue(inputKey, 300);
  const input = settledKey === null ? null : (JSON.parse(settledKey) as TPruneInput);
  const preview = api.member.prunePreview.useQuery(
    { guildId, prune: input ?? { days: PRUNE_DAYS_DEFAULT, include_roles: [] } },
    { enabled: input !== null && removed === null, staleTime: 0 },
  );
  const prune = api.member.prune.useMutation({
    onSuccess: async ({ pruned }) => {
      setRemoved(pruned ?? 0);
      notifySuccess(`${membersText(pruned ?? 0)} removed.`, "Prune finished");
      await refresh();
    },
    onError: (error) => notifyFailure("Could not prune", error),
  });

  if (removed !== null)
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconCheck size={18} />} title={`Removed ${membersText(removed)}`}>
          They can join again with an invite. The prune is recorded in the audit log.
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    );

  // The count on the button is the one shown: never a stale count for inputs still being typed.
  const isCurrent = inputKey !== null && settledKey === inputKey && preview.data !== undefined;
  const count = isCurrent ? preview.data.pruned : null;
  const daysValue = parsed.success ? parsed.data.days : Number(days);

  return (
    <Stack gap="md">
      <Text size="sm">
        Removes members who have not been seen for the chosen number of days and have no roles, except those you include below. The guild owner is never pruned.
      </Text>
      <NumberInput
        label="Inactive for at least (days)"
        min={PRUNE_DAYS_MIN}
        max={PRUNE_DAYS_MAX}
        clampBehavior="strict"
        allowDecimal={false}
        value={days}
        onChange={setDays}
        error={parsed.success || days === "" ? null : `Between ${PRUNE_DAYS_MIN} and ${PRUNE_DAYS_MAX} days.`}
        w={220}
        data-autofocus
      />
      <MultiSelect
        label="Also prune members with these roles"
        description="Members holding any role not listed here are kept."
        placeholder={includeRoles.length === 0 ? "Only members without roles" : undefined}
        data={roles.map((role) => ({ value: role.id, label: role.name }))}
        value={includeRoles}
        onChange={setIncludeRoles}
        searchable
        clearable
        nothingFoundMessage="No such role"
        comboboxProps={{ withinPortal: true }}
      />
      <Alert color={count ? "orange" : "gray"} variant="light" aria-live="polite" title="Preview">
        {!parsed.success ? (
          "Choose how many days to look back."
        ) : preview.isError ? (
          <Text size="sm" c="red">
            Could not count: {preview.error.message}
          </Text>
        ) : count === null ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">Counting…</Text>
          </Group>
        ) : (
          <Text size="sm">
            {count === 0 ? "No members" : <b>{membersText(count)}</b>} inactive for {daysValue} {daysValue === 1 ? "day" : "days"} would be removed.
          </Text>
        )}
      </Alert>
      <ReasonInput value={reason} onChange={(event) => setReason(event.currentTarget.value)} />
      {prune.isPending ? (
        <Stack gap={4}>
          <Text size="sm">Pruning…</Text>
          <Progress value={100} animated striped aria-label="Pruning" />
        </Stack>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={prune.isPending}>
          Cancel
        </Button>
        <Button
          color="red"
          disabled={!count || !parsed.success}
          loading={prune.isPending}
          onClick={() => parsed.success && prune.mutate({ guildId, prune: parsed.data, reason })}
        >
          {count ? `Prune ${membersText(count)}` : "Nothing to prune"}
        </Button>
      </Group>
    </Stack>
  );
}
