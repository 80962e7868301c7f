"use client";

import { Button, CopyButton, Group, Modal, MultiSelect, Select, Stack, Switch, Text, Textarea, TextInput, Tooltip } from "@mantine/core";
import { ChannelType } from "discord-api-types/v10";
import { useState } from "react";
import { useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { errorText, fieldError, fieldErrorsOf } from "~/components/forms/server-errors.ts";
import { IconCheck, IconCopy } from "~/components/icons.tsx";
import { api } from "~/trpc/react.tsx";
import { EXPIRE_AFTER_OPTIONS, MAX_USES_OPTIONS } from "./invite-options.ts";
import { useInviteLink } from "./use-invite-link.ts";

type Props = { guildId: string; opened: boolean; onClose: () => void };

const SNOWFLAKE = /^\d{1,20}$/;
/** The create call takes up to 1000 target users (the official description's limit). */
const TARGET_USERS_IN_DIALOG_MAX = 1000;

/** User ids typed or pasted, separated by commas, spaces or lines; the first bad one is named. */
function parseUserIds(text: string): { ids: string[]; error: string | null } {
  const ids = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  const bad = ids.find((id) => !SNOWFLAKE.test(id));
  if (bad) return { ids, error: `"${bad.slice(0, 40)}" is not a user id.` };
  if (ids.length > TARGET_USERS_IN_DIALOG_MAX) return { ids, error: `At most ${TARGET_USERS_IN_DIALOG_MAX} users; upload a CSV for more.` };
  return { ids, error: null };
}

/** Creates an invite to a channel, then shows its link to copy. */
export function CreateInviteModal({ guildId, opened, onClose }: Props) {
  const [createdCode, setCreatedCode] = useState<string | null>(null);
  const close = () => {
    onClose();
    setCreatedCode(null);
  };
  return (
    <Modal opened={opened} onClose={close} title={createdCode ? "Invite created" : "Create invite"}>
      {createdCode ? <InviteLinkView code={createdCode} onDone={close} /> : <CreateInviteForm guildId={guildId} onCancel={close} onCreated={setCreatedCode} />}
    </Modal>
  );
}

function CreateInviteForm({ guildId, onCancel, onCreated }: { guildId: string; onCancel: () => void; onCreated: (code: string) => void }) {
  const utils = api.useUtils();
  const channels = api.channel.list.useQuery({ guildId });
  const roles = api.role.list.useQuery({ guildId });
  const channelOptions = (channels.data ?? [])
    .filter((channel) => channel.type !== ChannelType.GuildCategory)
    .map((channel) => ({ value: channel.id, label: `#${channel.name ?? channel.id}` }));
  // @everyone is everyone's already; integrations' roles are theirs to give.
  const roleOptions = (roles.data ?? []).filter((role) => role.id !== guildId && !role.managed).map((role) => ({ value: role.id, label: role.name }));

  const [channelId, setChannelId] = useState<string | null>(null);
  const [maxAge, setMaxAge] = useState("604800");
  const [maxUses, setMaxUses] = useState("0");
  const [temporary, setTemporary] = useState(false);
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [targetUsers, setTargetUsers] = useState("");
  const targets = parseUserIds(targetUsers);
  const chosenChannel = channelId ?? channelOptions[0]?.value ?? null;

  const feedback = useSaveFeedback(null, "Could not create the invite");
  const create = api.invite.create.useMutation({
    onSuccess: async (invite) => {
      onCreated(invite.code);
      await utils.invite.list.invalidate({ guildId });
    },
    onError: (error) => feedback.onServerError(error),
  });
  const serverErrors = fieldErrorsOf(create.error);

  return (
    <form
      ref={feedback.ref}
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosenChannel || targets.error) return;
        create.mutate({
          channelId: chosenChannel,
          body: {
            max_age: Number(maxAge),
            max_uses: Number(maxUses),
            temporary,
            role_ids: roleIds,
            ...(targets.ids.length > 0 && { target_user_ids: targets.ids }),
          },
        });
      }}
    >
      <Stack gap="md">
        <Select
          label="Channel"
          description="Where people land when they join."
          data={channelOptions}
          value={chosenChannel}
          onChange={setChannelId}
          allowDeselect={false}
          searchable
          disabled={channels.isPending}
          error={
            channels.isError
              ? errorText(channels.error)
              : channels.data && channelOptions.length === 0
                ? "This guild has no channel to invite to."
                : fieldError(serverErrors, "channel_id")
          }
        />
        <Group grow align="flex-start">
          <Select
            label="Expire after"
            data={EXPIRE_AFTER_OPTIONS}
            value={maxAge}
            onChange={(value) => value && setMaxAge(value)}
            allowDeselect={false}
            error={fieldError(serverErrors, "max_age")}
          />
          <Select
            label="Max uses"
            data={MAX_USES_OPTIONS}
            value={maxUses}
            onChange={(value) => value && setMaxUses(value)}
            allowDeselect={false}
            error={fieldError(serverErrors, "max_uses")}
          />
        </Group>
        <MultiSelect
          label="Roles granted"
          description="Given to everyone who joins with this invite."
          placeholder={roleIds.length ? undefined : "No roles"}
          data={roleOptions}
          value={roleIds}
          onChange={setRoleIds}
          searchable
          clearable
          disabled={roles.isPending}
          nothingFoundMessage="No roles match"
          error={fieldError(serverErrors, "role_ids")}
        />
        <Textarea
          label="Only these users"
          description="User ids of the people who may accept it, separated by commas or lines; empty lets anyone in. For long lists, upload a CSV from the invite's Target users."
          placeholder="Anyone with the link"
          autosize
          minRows={1}
          maxRows={4}
          value={targetUsers}
          onChange={(event) => setTargetUsers(event.currentTarget.value)}
          error={targets.error ?? fieldError(serverErrors, "target_user_ids")}
        />
        <Switch
          label="Temporary membership"
          description="Members who joined with this invite are removed when they go offline, unless given a role."
          checked={temporary}
          onChange={(event) => setTemporary(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} disabled={!chosenChannel || targets.error !== null}>
            Create invite
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function InviteLinkView({ code, onDone }: { code: string; onDone: () => void }) {
  const link = useInviteLink()(code);
  return (
    <Stack gap="md">
      <Text size="sm">Send this link to the people you want to invite.</Text>
      <TextInput
        label="Invite link"
        value={link}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
        rightSectionWidth={96}
        rightSection={
          <CopyButton value={link}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? "Copied" : "Copy link"} withArrow>
                <Button
                  size="compact-sm"
                  variant={copied ? "light" : "filled"}
                  color={copied ? "teal" : undefined}
                  leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                  onClick={copy}
                >
                  {copied ? "Copied" : "Copy"}
                </Button>
              </Tooltip>
            )}
          </CopyButton>
        }
      />
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
