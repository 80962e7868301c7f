"use client";

import { Badge, Box, Group, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { QueryError } from "~/components/query-error.tsx";
import type { PermissionGroup } from "~/components/roles/permission-catalog.ts";
import { api } from "~/trpc/react.tsx";
import { MemberPicker, type PickedMember } from "./member-picker.tsx";

type Target = { type: "role"; id: string } | { type: "member"; id: string; name: string };

type Props = {
  guildId: string;
  channelId: string;
  groups: readonly PermissionGroup[];
  roles: readonly { id: string; name: string }[];
  /** Members with an overwrite here, offered first. */
  members: readonly PickedMember[];
};

/** What a member (or a role on its own) may do in the channel as saved, and where each permission comes from. */
export function EffectivePermissions({ guildId, channelId, groups, roles, members }: Props) {
  const [kind, setKind] = useState<"role" | "member">(members.length ? "member" : "role");
  const [role, setRole] = useState(roles[0]?.id ?? "");
  const [member, setMember] = useState<PickedMember | null>(members[0] ?? null);
  const target: Target | null = kind === "role" ? (role ? { type: "role", id: role } : null) : member ? { type: "member", ...member } : null;

  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="sm">
        <SegmentedControl
          aria-label="Whose permissions"
          data={[
            { value: "member", label: "Member" },
            { value: "role", label: "Role" },
          ]}
          value={kind}
          onChange={(value) => setKind(value === "role" ? "role" : "member")}
        />
        {kind === "role" ? (
          <Select
            label="Role"
            data={roles.map((r) => ({ value: r.id, label: r.name }))}
            value={role}
            allowDeselect={false}
            onChange={(id) => id && setRole(id)}
            flex="1 1 200px"
          />
        ) : (
          <Box flex="1 1 200px">
            <MemberPicker guildId={guildId} label="Member" placeholder={member ? member.name : "Type a name"} onPick={setMember} />
          </Box>
        )}
      </Group>
      {kind === "member" && member ? (
        <Text size="sm">
          Showing <b>{member.name}</b>
        </Text>
      ) : null}
      {target ? (
        <EffectiveList channelId={channelId} target={target} groups={groups} />
      ) : (
        <Text size="sm" c="dimmed">
          Choose a member.
        </Text>
      )}
    </Stack>
  );
}

function EffectiveList({ channelId, target, groups }: { channelId: string; target: Target; groups: readonly PermissionGroup[] }) {
  const effective = api.channel.effectivePermissions.useQuery({ channelId, target: { type: target.type, id: target.id } });
  if (effective.isError) return <QueryError error={effective.error} onRetry={() => void effective.refetch()} title="Could not work out the permissions" />;
  if (effective.isPending) return <Skeleton height={200} />;
  const byBit = new Map(effective.data.permissions.map((p) => [p.bit, p]));
  return (
    <Stack gap="md" component="section" aria-label="Effective permissions" className="permission-scroll" tabIndex={0}>
      {groups.map((group) => (
        <Box key={group.title}>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.4} mb={4}>
            {group.title}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" verticalSpacing={0} role="list" aria-label={group.title}>
            {group.permissions.map((permission) => {
              const entry = byBit.get(permission.bit.toString());
              if (!entry) return null;
              return (
                <Box key={permission.name} role="listitem" aria-label={`${permission.label}: ${entry.allowed ? "allowed" : "denied"}`} py={4}>
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    <Text size="sm">{permission.label}</Text>
                    <Badge size="sm" variant="light" color={entry.allowed ? "green" : "red"} style={{ flexShrink: 0 }}>
                      {entry.allowed ? "Allowed" : "Denied"}
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed">
                    {entry.sources.join(" → ")}
                  </Text>
                </Box>
              );
            })}
          </SimpleGrid>
        </Box>
      ))}
    </Stack>
  );
}
