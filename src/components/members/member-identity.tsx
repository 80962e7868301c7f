"use client";

import { Avatar, Badge, Box, Group, Text, Tooltip } from "@mantine/core";
import { colorToHex } from "~/components/roles/role-values.ts";
import { displayName, memberAvatarUrl, type MemberObject } from "./member-display.ts";

export type RoleLabel = { id: string; name: string; color: number };

/** The member's avatar, or their initials while user avatars are not stored. */
export function MemberAvatar({ guildId, member, size = 32 }: { guildId: string; member: MemberObject; size?: number }) {
  const name = displayName(member);
  return <Avatar src={memberAvatarUrl(guildId, member)} name={name} alt={name} color="initials" size={size} radius="xl" />;
}

/** Avatar, display name and username, as a member is shown in lists. */
export function MemberIdentity({ guildId, member }: { guildId: string; member: MemberObject }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <MemberAvatar guildId={guildId} member={member} />
      <Box miw={0}>
        <Text size="sm" fw={500} truncate>
          {displayName(member)}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          @{member.user.username}
        </Text>
      </Box>
    </Group>
  );
}

/** A role as a chip: the role's colour on its dot and border, the name in the text colour so every colour stays readable. */
export function RoleChip({ role }: { role: RoleLabel }) {
  const color = colorToHex(role.color);
  return (
    <Badge
      variant="default"
      radius="sm"
      tt="none"
      fw={500}
      leftSection={<RoleDot color={color} />}
      // Chips keep their full width; a narrow screen scrolls the table instead.
      style={{ flexShrink: 0, ...(color && { borderColor: `color-mix(in srgb, ${color} 55%, transparent)` }) }}
    >
      {role.name}
    </Badge>
  );
}

function RoleDot({ color }: { color: string }) {
  return <span aria-hidden style={{ display: "block", width: 8, height: 8, borderRadius: 8, background: color || "var(--mantine-color-gray-5)" }} />;
}

/** A member's roles, highest first, the first few as chips and the rest in a tooltip. */
export function RoleChips({
  roleIds,
  roles,
  max = 3,
}: {
  roleIds: readonly string[];
  roles: ReadonlyMap<string, RoleLabel & { position: number }>;
  max?: number;
}) {
  const held = roleIds.flatMap((id) => roles.get(id) ?? []).sort((a, b) => b.position - a.position);
  if (held.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No roles
      </Text>
    );
  const rest = held.slice(max);
  return (
    <Group gap={4} wrap="nowrap">
      {held.slice(0, max).map((role) => (
        <RoleChip key={role.id} role={role} />
      ))}
      {rest.length > 0 ? (
        <Tooltip label={rest.map((role) => role.name).join(", ")}>
          <Badge variant="default" radius="sm" tt="none" fw={500} style={{ flexShrink: 0 }}>
            +{rest.length}
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}
