"use client";

import { Box, Group, SegmentedControl, Stack, Text, Title, Tooltip } from "@mantine/core";
import type { PermissionGroup } from "~/components/roles/permission-catalog.ts";
import { stateOf, type DraftOverwrite, type OverwriteState } from "./overwrite-draft.ts";

type Props = {
  overwrite: DraftOverwrite;
  groups: readonly PermissionGroup[];
  /** Why a permission cannot be changed here (from the server), or null. */
  reasonOf: (bit: bigint) => string | null;
  onChange: (bit: bigint, state: OverwriteState) => void;
};

const CHOICES = [
  { value: "deny", label: "Deny" },
  { value: "neutral", label: "Inherit" },
  { value: "allow", label: "Allow" },
];
// A darker grey than the palette's filled one, so white "Inherit" on it stays readable.
const COLORS: Record<OverwriteState, string> = { allow: "green", neutral: "gray.7", deny: "red" };

/** Every permission the channel type has, grouped, each with allow / inherit / deny; rows stack on phones. */
export function PermissionGrid({ overwrite, groups, reasonOf, onChange }: Props) {
  return (
    <Stack gap="lg">
      {groups.map((group) => (
        <Box key={group.title} role="group" aria-label={`${group.title} permissions`}>
          <Title order={3} fz="sm" tt="uppercase" c="dimmed" lts={0.4} mb="xs">
            {group.title}
          </Title>
          <Stack gap={0}>
            {group.permissions.map((permission) => {
              const reason = reasonOf(permission.bit);
              const state = stateOf(overwrite, permission.bit);
              return (
                <Group key={permission.name} className="permission-row" justify="space-between" gap="sm" py="xs" align="center">
                  <Box miw={0} flex="1 1 240px">
                    <Text size="sm" fw={500}>
                      {permission.label}
                    </Text>
                    <Text size="xs" c={reason ? "orange.8" : "dimmed"}>
                      {reason ?? permission.description}
                    </Text>
                  </Box>
                  <Tooltip label={reason} disabled={!reason} multiline maw={320}>
                    <SegmentedControl
                      aria-label={permission.label}
                      size="xs"
                      data={CHOICES}
                      value={state}
                      color={COLORS[state]}
                      disabled={reason !== null}
                      onChange={(value) => onChange(permission.bit, value as OverwriteState)}
                    />
                  </Tooltip>
                </Group>
              );
            })}
          </Stack>
        </Box>
      ))}
    </Stack>
  );
}
