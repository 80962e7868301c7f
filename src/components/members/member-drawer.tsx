"use client";

import { Badge, Drawer, Group, ScrollArea, Skeleton, Stack, Switch, Table, Text, Title } from "@mantine/core";
import { GuildMemberFlags } from "discord-api-types/v10";
import type { ReactNode } from "react";
import { humanize } from "~/components/format.ts";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { QueryError } from "~/components/query-error.tsx";
import { permissionLabel } from "~/components/roles/permission-catalog.ts";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { displayName, isTimedOut, type MemberObject } from "./member-display.ts";
import { MemberAvatar, RoleChip } from "./member-identity.tsx";
import { MemberStatusBadges } from "./member-status-badges.tsx";
import { useMemberRefresh } from "./use-member-refresh.ts";
import { Time, TimeLeft } from "~/components/time/time.tsx";

type Details = RouterOutputs["member"]["get"];

const BYPASS = GuildMemberFlags.BypassesVerification;
/** One row per permission, labelled as on the Roles page. */
function permissionRows(entries: Details["permissions"]): { label: string; sources: string[] }[] {
  return entries.map((entry) => ({ label: permissionLabel(BigInt(entry.bit)), sources: entry.sources }));
}
/** Flags the platform sets, shown read-only; BYPASSES_VERIFICATION has its own switch. */
const SHOWN_FLAGS = Object.entries(GuildMemberFlags).filter((pair): pair is [string, number] => typeof pair[1] === "number" && pair[1] !== BYPASS);

type Props = { guildId: string; member: MemberObject | null; opened: boolean; onClose: () => void };

/** One member: roles, flags, join date and every guild permission with where it comes from. */
export function MemberDrawer({ guildId, member, opened, onClose }: Props) {
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="lg" title="Member details" scrollAreaComponent={ScrollArea.Autosize}>
      {member ? <DrawerBody key={member.user.id} guildId={guildId} userId={member.user.id} /> : null}
    </Drawer>
  );
}

function DrawerBody({ guildId, userId }: { guildId: string; userId: string }) {
  const details = api.member.get.useQuery({ guildId, userId });
  if (details.isError) return <QueryError error={details.error} onRetry={() => void details.refetch()} title="Could not load the member" />;
  if (details.isPending)
    return (
      <Stack gap="md" role="status" aria-busy="true" aria-label="Loading">
        <Group>
          <Skeleton height={56} circle />
          <Stack gap={6} flex={1}>
            <Skeleton height={14} width="50%" />
            <Skeleton height={10} width="30%" />
          </Stack>
        </Group>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={60} />
        ))}
      </Stack>
    );
  return <MemberDetails guildId={guildId} details={details.data} />;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section">
      <Title order={3} fz="sm" tt="uppercase" c="dimmed" fw={600}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function MemberDetails({ guildId, details }: { guildId: string; details: Details }) {
  const { member, denials } = details;
  const refresh = useMemberRefresh(guildId);
  const modify = api.member.modify.useMutation({
    onSuccess: async (updated) => {
      notifySuccess(
        updated.flags & BYPASS ? "They skip the guild's verification requirements." : "They must meet the verification requirements.",
        "Flags saved",
      );
      await refresh();
    },
    onError: (error) => notifyFailure("Could not change the flags", error),
  });
  const heldRoles = details.roles.filter((role) => role.held);
  const otherFlags = SHOWN_FLAGS.filter(([, bit]) => (member.flags & bit) !== 0);
  const permissions = permissionRows(details.permissions);

  return (
    <Stack gap="lg">
      <Group gap="md" wrap="nowrap">
        <MemberAvatar guildId={guildId} member={member} size={56} />
        <Stack gap={2} miw={0}>
          <Text fw={600} size="lg" truncate>
            {displayName(member)}
          </Text>
          <Text size="sm" c="dimmed">
            @{member.user.username}
          </Text>
          <Group gap={6} mt={4}>
            {details.isOwner ? (
              <Badge variant="light" color="yellow">
                Owner
              </Badge>
            ) : null}
            <MemberStatusBadges member={member} />
          </Group>
        </Stack>
      </Group>

      <Section title="Membership">
        <Text size="sm">
          Joined <Time value={member.joined_at} />
        </Text>
        <Text size="sm" c="dimmed">
          User ID {member.user.id}
        </Text>
        {isTimedOut(member) && member.communication_disabled_until ? (
          <Text size="sm" c="orange">
            Timed out:{" "}
            <TimeLeft until={member.communication_disabled_until} ended="ended">
              {(left) => `${left} left`}
            </TimeLeft>
          </Text>
        ) : null}
        {member.pending ? (
          <Text size="sm" c="dimmed">
            Has not completed membership screening yet.
          </Text>
        ) : null}
      </Section>

      <Section title={`Roles (${heldRoles.length})`}>
        {heldRoles.length === 0 ? (
          <Text size="sm" c="dimmed">
            Only @everyone.
          </Text>
        ) : (
          <Group gap={6}>
            {heldRoles.map((role) => (
              <RoleChip key={role.id} role={role} />
            ))}
          </Group>
        )}
      </Section>

      <Section title="Flags">
        <Switch
          label="Bypasses verification"
          description={denials.flags ?? "Lets them talk before meeting the guild's verification level."}
          checked={(member.flags & BYPASS) !== 0}
          disabled={denials.flags !== null || modify.isPending}
          onChange={(event) =>
            modify.mutate({ guildId, userId: member.user.id, body: { flags: event.currentTarget.checked ? member.flags | BYPASS : member.flags & ~BYPASS } })
          }
        />
        {otherFlags.length > 0 ? (
          <Group gap={6}>
            {otherFlags.map(([name]) => (
              <Badge key={name} variant="outline" color="gray" tt="none">
                {humanize(name)}
              </Badge>
            ))}
          </Group>
        ) : null}
      </Section>

      <Section title="Guild permissions">
        {permissions.length === 0 ? (
          <Text size="sm" c="dimmed">
            No guild-wide permissions.
          </Text>
        ) : (
          <Table verticalSpacing={6} fz="sm" withRowBorders>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Permission</Table.Th>
                <Table.Th>From</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {permissions.map((entry) => (
                <Table.Tr key={entry.label}>
                  <Table.Td>{entry.label}</Table.Td>
                  <Table.Td c="dimmed">{entry.sources.join(", ")}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
    </Stack>
  );
}
