"use client";

import { MultiSelect, Stack, Switch, Text } from "@mantine/core";
import { MemberPicker, type PickedMember } from "./member-picker.tsx";
import type { DraftOverwrite } from "./overwrite-draft.ts";

type Props = {
  guildId: string;
  isPrivate: boolean;
  overwrites: readonly DraftOverwrite[];
  roles: readonly { id: string; name: string }[];
  viewerIds: readonly string[];
  /** Why VIEW_CHANNEL cannot be changed here (from the server), or null. */
  reason: string | null;
  isCategory: boolean;
  onPrivateChange: (on: boolean) => void;
  onViewersChange: (ids: string[]) => void;
  onAddMember: (member: PickedMember) => void;
};

/** The shortcut: deny @everyone View channel, and pick who may still see it. */
export function PrivateChannelCard(props: Props) {
  const members = props.overwrites.filter((o) => o.type === 1);
  const data = [
    { group: "Roles", items: props.roles.map((role) => ({ value: role.id, label: role.name })) },
    ...(members.length ? [{ group: "Members", items: members.map((m) => ({ value: m.id, label: m.name })) }] : []),
  ];
  const place = props.isCategory ? "category" : "channel";
  return (
    <Stack gap="sm">
      <Switch
        size="md"
        label={`Private ${place}`}
        description={props.reason ?? `Only the roles and members you choose (and administrators) can view this ${place}.`}
        checked={props.isPrivate}
        disabled={props.reason !== null}
        onChange={(event) => props.onPrivateChange(event.currentTarget.checked)}
      />
      {props.isPrivate ? (
        <Stack gap="xs" pl={{ base: 0, sm: 54 }}>
          <MultiSelect
            label="Who can view it"
            placeholder={props.viewerIds.length ? undefined : "Choose roles"}
            data={data}
            value={[...props.viewerIds]}
            searchable
            disabled={props.reason !== null}
            onChange={props.onViewersChange}
          />
          <MemberPicker
            guildId={props.guildId}
            label="Add a member who can view it"
            exclude={new Set(props.viewerIds)}
            disabled={props.reason !== null}
            onPick={props.onAddMember}
          />
          {props.viewerIds.length === 0 ? (
            <Text size="xs" c="orange.8">
              No role or member is allowed yet: only administrators will see it.
            </Text>
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
}
