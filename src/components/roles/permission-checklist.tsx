"use client";

import { Badge, Box, Checkbox, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { PermissionFlagsBits } from "discord-api-types/v10";
import { PERMISSION_GROUPS } from "./permission-catalog.ts";

type Props = {
  value: string;
  onChange: (value: string) => void;
  /** Why a bit can't be changed, or null when it can. */
  lockedReason: (bit: bigint) => string | null;
};

/** A role's permissions as grouped checkboxes over the decimal bitfield. */
export function PermissionChecklist({ value, onChange, lockedReason }: Props) {
  const bits = BigInt(value);
  const isAdmin = (bits & PermissionFlagsBits.Administrator) !== 0n;
  const toggle = (bit: bigint, on: boolean) => onChange((on ? bits | bit : bits & ~bit).toString());

  return (
    <Stack gap="lg">
      {isAdmin ? (
        <Text size="sm" c="orange.8">
          Administrator grants every permission, whatever is ticked below.
        </Text>
      ) : null}
      {PERMISSION_GROUPS.map((group) => {
        const held = group.permissions.filter((p) => (bits & p.bit) !== 0n).length;
        return (
          <Box key={group.title} role="group" aria-label={`${group.title} permissions`}>
            <Group gap="xs" mb="xs">
              <Title order={3} fz="sm" tt="uppercase" c="dimmed" lts={0.4}>
                {group.title}
              </Title>
              <Badge size="xs" variant="light" color={held ? undefined : "gray"}>
                {held}/{group.permissions.length}
              </Badge>
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
              {group.permissions.map((permission) => {
                const reason = lockedReason(permission.bit);
                return (
                  <Checkbox
                    key={permission.name}
                    label={permission.label}
                    description={reason ?? permission.description}
                    checked={(bits & permission.bit) !== 0n}
                    disabled={reason !== null}
                    onChange={(event) => toggle(permission.bit, event.currentTarget.checked)}
                  />
                );
              })}
            </SimpleGrid>
          </Box>
        );
      })}
    </Stack>
  );
}
