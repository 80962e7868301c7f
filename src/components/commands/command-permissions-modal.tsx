"use client";

import { Alert, Badge, Button, ColorSwatch, Group, Modal, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import { modals } from "@mantine/modals";
import { ApplicationCommandPermissionType as T } from "discord-api-types/v10";
import { useState } from "react";
import { MemberPicker } from "~/components/channel-permissions/member-picker.tsx";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconLock, IconTrash } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { defaultPermissionsText } from "./command-display.ts";
import { isDirty, keyOf, splitDraft, toPermissionsBody, withOverwrite, withoutOverwrite, type DraftOverwrite } from "./command-permissions-draft.ts";

type Editor = RouterOutputs["command"]["permissionsEditor"];

/** Whose list is edited: one command's, or the app-level entry's (`commandId` is the application's id, `label` null). */
export type PermissionsTarget = {
  applicationId: string;
  applicationName: string;
  commandId: string;
  label: string | null;
  defaultMemberPermissions: string | null;
};

type Props = { guildId: string; target: PermissionsTarget | null; onClose: () => void };

/** Who may use one command (or every command of an app) in this guild, and where: roles, members and channels, each allowed or denied. */
export function CommandPermissionsModal({ guildId, target, onClose }: Props) {
  return (
    <Modal opened={target !== null} onClose={onClose} title={target?.label ? `Permissions for ${target.label}` : "Permissions for all commands"} size="lg">
      {target ? <EditorBody key={`${target.applicationId}:${target.commandId}`} guildId={guildId} target={target} onClose={onClose} /> : null}
    </Modal>
  );
}

function EditorBody({ guildId, target, onClose }: { guildId: string; target: PermissionsTarget; onClose: () => void }) {
  const editor = api.command.permissionsEditor.useQuery(targetInput(guildId, target), { refetchOnWindowFocus: false });
  if (editor.isError) return <QueryError error={editor.error} onRetry={() => void editor.refetch()} title="Could not load the permissions" />;
  if (!editor.data) return <Skeleton height={240} radius="md" />;
  return <EditorForm guildId={guildId} target={target} editor={editor.data} onClose={onClose} />;
}

function EditorForm({ guildId, target, editor, onClose }: { guildId: string; target: PermissionsTarget; editor: Editor; onClose: () => void }) {
  const utils = api.useUtils();
  const [draft, setDraft] = useState<DraftOverwrite[]>(editor.permissions);
  const save = api.command.setPermissions.useMutation({
    onSuccess: async () => {
      notifySuccess(`Saved who may use ${target.label ?? `the commands of ${target.applicationName}`}.`, "Permissions saved");
      onClose();
      await Promise.all([utils.command.guild.invalidate({ guildId }), utils.command.permissionsEditor.invalidate()]);
    },
    onError: (error) => notifyFailure("Could not save the permissions", error),
  });
  const locked = editor.editDenial !== null;
  const { people, places } = splitDraft(draft);
  const present = new Set(draft.map(keyOf));
  // Why the viewer may not name what a row names (a role above theirs, a channel they cannot view), from the server's decision.
  const reasons = new Map<string, string | null>([
    ...editor.roles.map((role) => [keyOf({ id: role.id, type: T.Role }), role.denial] as const),
    ...editor.channels.map((channel) => [keyOf({ id: channel.id, type: T.Channel }), channel.denial] as const),
    ...editor.listProblems.map((problem) => [keyOf(problem), problem.reason] as const),
  ]);
  const colors = new Map(editor.roles.map((role) => [role.id, role.color]));
  const add = (overwrite: Omit<DraftOverwrite, "permission">) => setDraft((list) => withOverwrite(list, { ...overwrite, permission: true }));
  const submit = () => save.mutate({ ...targetInput(guildId, target), permissions: toPermissionsBody(draft) });
  const confirmClear = () =>
    modals.openConfirmModal({
      title: "Remove every overwrite",
      children: (
        <Text size="sm">
          {target.label
            ? `${target.label} goes back to the app's settings and its default permissions (${defaultPermissionsText(target.defaultMemberPermissions)}).`
            : `Commands of ${target.applicationName} without overwrites of their own go back to their default permissions.`}
        </Text>
      ),
      labels: { confirm: "Remove all", cancel: "Keep them" },
      confirmProps: { color: "red" },
      onConfirm: submit,
    });

  const roleChoices = editor.roles.filter((role) => !present.has(keyOf({ id: role.id, type: T.Role })));
  const channelChoices = [{ id: editor.allChannelsId, name: "All channels", denial: null }, ...editor.channels].filter(
    (channel) => !present.has(keyOf({ id: channel.id, type: T.Channel })),
  );
  const memberIds = new Set(people.filter((o) => o.type === T.User).map((o) => o.id));

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {target.label
          ? `These decide who may use ${target.label} here, before the app's settings and its default permissions (${defaultPermissionsText(target.defaultMemberPermissions)}).`
          : `These apply to every command of ${target.applicationName} without overwrites of its own. Each command's default permissions still apply.`}{" "}
        Administrators may always use every command.
      </Text>
      {locked ? (
        <Alert color="gray" icon={<IconLock size={18} />} title="You can't change these">
          {editor.editDenial}
        </Alert>
      ) : null}
      <OverwriteList
        title="Roles and members"
        empty="No role or member has an overwrite."
        rows={people}
        reasons={reasons}
        colors={colors}
        locked={locked}
        onChange={(overwrite) => setDraft((list) => withOverwrite(list, overwrite))}
        onRemove={(key) => setDraft((list) => withoutOverwrite(list, key))}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TargetSelect label="Add a role" choices={roleChoices} disabled={locked} onPick={(role) => add({ id: role.id, type: T.Role, name: role.name })} />
        <MemberPicker
          guildId={guildId}
          label="Add a member"
          exclude={memberIds}
          disabled={locked}
          onPick={(member) => add({ id: member.id, type: T.User, name: member.name })}
        />
      </SimpleGrid>
      <OverwriteList
        title="Channels"
        empty="No channel has an overwrite: the command may be used in every channel."
        rows={places}
        reasons={reasons}
        colors={colors}
        locked={locked}
        onChange={(overwrite) => setDraft((list) => withOverwrite(list, overwrite))}
        onRemove={(key) => setDraft((list) => withoutOverwrite(list, key))}
      />
      <TargetSelect
        label="Add a channel"
        choices={channelChoices}
        disabled={locked}
        onPick={(channel) => add({ id: channel.id, type: T.Channel, name: channel.name })}
      />
      <Group justify="space-between" gap="xs" mt="xs">
        <Text size="xs" c={draft.length > editor.maxOverwrites ? "red" : "dimmed"}>
          {draft.length} of {editor.maxOverwrites} overwrites
        </Text>
        <Group gap="xs" justify="flex-end">
          <Button variant="subtle" color="red" disabled={locked || draft.length === 0} onClick={() => setDraft([])}>
            Remove all
          </Button>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={save.isPending}
            disabled={locked || !isDirty(draft, editor.permissions)}
            onClick={() => (draft.length === 0 ? confirmClear() : submit())}
          >
            Save
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

function targetInput(guildId: string, target: PermissionsTarget) {
  return { guildId, applicationId: target.applicationId, commandId: target.commandId };
}

type ListProps = {
  title: string;
  empty: string;
  rows: readonly DraftOverwrite[];
  reasons: ReadonlyMap<string, string | null>;
  /** Role colours by id, for the swatch beside a role. */
  colors: ReadonlyMap<string, number>;
  locked: boolean;
  onChange: (overwrite: DraftOverwrite) => void;
  onRemove: (key: string) => void;
};

/** The overwrites of one kind, each allowed or denied, each removable (nothing changes until the save). */
function OverwriteList({ title, empty, rows, reasons, colors, locked, onChange, onRemove }: ListProps) {
  return (
    <Stack gap={6}>
      <Title order={3} fz="sm">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap={6} role="list" aria-label={title}>
          {rows.map((row) => {
            const reason = reasons.get(keyOf(row)) ?? null;
            return (
              <Stack key={keyOf(row)} gap={2} role="listitem" aria-label={row.name}>
                <Group gap="xs" wrap="nowrap" justify="space-between">
                  <Group gap="xs" wrap="nowrap" miw={0}>
                    {/* A channel's name carries its "#". */}
                    {row.type === T.Channel ? null : <ColorSwatch color={colorOf(colors.get(row.id) ?? 0)} size={12} withShadow={false} />}
                    <Text size="sm" truncate>
                      {row.name}
                    </Text>
                    {row.type === T.User ? (
                      <Badge size="xs" variant="light" color="gray" tt="none">
                        Member
                      </Badge>
                    ) : null}
                  </Group>
                  <Group gap={4} wrap="nowrap">
                    <SegmentedControl
                      size="xs"
                      aria-label={`${row.name}: allow or deny`}
                      color={row.permission ? "teal" : "red"}
                      disabled={locked}
                      value={row.permission ? "allow" : "deny"}
                      data={[
                        { value: "allow", label: "Allow" },
                        { value: "deny", label: "Deny" },
                      ]}
                      onChange={(value) => onChange({ ...row, permission: value === "allow" })}
                    />
                    <GuardedAction label={`Remove ${row.name}`} color="red" disabled={locked} onClick={() => onRemove(keyOf(row))}>
                      <IconTrash size={16} />
                    </GuardedAction>
                  </Group>
                </Group>
                {reason ? (
                  <Text size="xs" c="red">
                    {reason} Saving is refused while it is listed.
                  </Text>
                ) : null}
              </Stack>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

function colorOf(color: number): string {
  return color ? `#${color.toString(16).padStart(6, "0")}` : "var(--mantine-color-gray-5)";
}

type Choice = { id: string; name: string; denial: string | null };

/** A role or channel to add; those the viewer may not name are shown disabled, with the reason. */
function TargetSelect<C extends Choice>({
  label,
  choices,
  disabled,
  onPick,
}: {
  label: string;
  choices: readonly C[];
  disabled: boolean;
  onPick: (choice: C) => void;
}) {
  const reasons = new Map(choices.map((choice) => [choice.id, choice.denial]));
  return (
    <Select
      label={label}
      placeholder={choices.length ? "Choose" : "All have an overwrite"}
      searchable
      value={null}
      disabled={disabled || choices.length === 0}
      data={choices.map((choice) => ({ value: choice.id, label: choice.name, disabled: choice.denial !== null }))}
      renderOption={({ option }) => (
        <Stack gap={0}>
          <Text size="sm">{option.label}</Text>
          {reasons.get(option.value) ? (
            <Text size="xs" c="dimmed">
              {reasons.get(option.value)}
            </Text>
          ) : null}
        </Stack>
      )}
      onChange={(id) => {
        const choice = choices.find((candidate) => candidate.id === id);
        if (choice) onPick(choice);
      }}
    />
  );
}
