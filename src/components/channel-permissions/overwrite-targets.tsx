"use client";

import { Badge, Box, ColorSwatch, Group, Select, Stack, Text, UnstyledButton } from "@mantine/core";
import { modals } from "@mantine/modals";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconTrash } from "~/components/icons.tsx";
import { MemberPicker, type PickedMember } from "./member-picker.tsx";
import type { DraftOverwrite } from "./overwrite-draft.ts";

type Role = { id: string; name: string; color: number };

type Props = {
  guildId: string;
  everyoneId: string;
  overwrites: readonly DraftOverwrite[];
  selectedId: string;
  roles: readonly Role[];
  /** Null when overwrites may be added here, else why not. */
  addReason: string | null;
  /** Why an overwrite cannot be removed, or null. */
  removeReason: (id: string) => string | null;
  onSelect: (id: string) => void;
  onAddRole: (role: Role) => void;
  onAddMember: (member: PickedMember) => void;
  onRemove: (id: string) => void;
};

function colorOf(color: number): string {
  return color ? `#${color.toString(16).padStart(6, "0")}` : "var(--mantine-color-gray-5)";
}

/** The roles and members with an overwrite here (@everyone first), the one being edited, and ways to add or remove one. */
export function OverwriteTargets(props: Props) {
  const { overwrites, selectedId, everyoneId } = props;
  const present = new Set(overwrites.map((o) => o.id));
  const addable = props.roles.filter((role) => role.id !== everyoneId && !present.has(role.id));
  const ordered = [...overwrites].sort((a, b) => Number(b.id === everyoneId) - Number(a.id === everyoneId) || a.type - b.type);

  const confirmRemove = (overwrite: DraftOverwrite) =>
    modals.openConfirmModal({
      title: "Remove overwrite",
      children: (
        <Text size="sm">
          Remove the overwrite for <b>{overwrite.name}</b>? In this channel they get what their roles give them. Nothing changes until you save.
        </Text>
      ),
      labels: { confirm: "Remove", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () => props.onRemove(overwrite.id),
    });

  return (
    <Stack gap="sm">
      <Stack gap={4} role="list" aria-label="Roles and members with overwrites">
        {ordered.map((overwrite) => {
          const isSelected = overwrite.id === selectedId;
          return (
            <Group
              key={overwrite.id}
              role="listitem"
              gap="xs"
              wrap="nowrap"
              px="xs"
              py={4}
              bg={isSelected ? "var(--mantine-primary-color-light)" : undefined}
              style={{ borderRadius: "var(--mantine-radius-sm)" }}
            >
              <UnstyledButton flex={1} miw={0} onClick={() => props.onSelect(overwrite.id)} aria-pressed={isSelected} aria-label={`Edit ${overwrite.name}`}>
                <Group gap="xs" wrap="nowrap">
                  <ColorSwatch color={colorOf(overwrite.color)} size={12} withShadow={false} />
                  <Text size="sm" fw={isSelected ? 600 : 400} truncate>
                    {overwrite.name}
                  </Text>
                  {overwrite.type === 1 ? (
                    <Badge size="xs" variant="light" color="gray">
                      Member
                    </Badge>
                  ) : null}
                </Group>
              </UnstyledButton>
              {overwrite.id === everyoneId ? (
                <Box w={28} />
              ) : (
                <GuardedAction
                  label={`Remove overwrite for ${overwrite.name}`}
                  color="red"
                  blockedReason={props.removeReason(overwrite.id)}
                  onClick={() => confirmRemove(overwrite)}
                >
                  <IconTrash size={16} />
                </GuardedAction>
              )}
            </Group>
          );
        })}
      </Stack>
      <Select
        label="Add a role"
        placeholder={addable.length ? "Choose a role" : "Every role has an overwrite"}
        data={addable.map((role) => ({ value: role.id, label: role.name }))}
        value={null}
        searchable
        disabled={props.addReason !== null || addable.length === 0}
        description={props.addReason ?? undefined}
        onChange={(id) => {
          const role = addable.find((r) => r.id === id);
          if (role) props.onAddRole(role);
        }}
      />
      <MemberPicker guildId={props.guildId} label="Add a member" exclude={present} disabled={props.addReason !== null} onPick={props.onAddMember} />
    </Stack>
  );
}
