import { Badge, Card, Group, Stack, Text } from "@mantine/core";
import Link from "next/link";
import { formatMembers } from "~/components/format.ts";
import { GuildAvatar } from "~/components/guild/guild-avatar.tsx";
import { IconCrown, IconUsers } from "~/components/icons.tsx";
import type { RouterOutputs } from "~/trpc/react.tsx";

export type PartialGuild = RouterOutputs["guild"]["list"][number];

export function GuildCard({ guild }: { guild: PartialGuild }) {
  return (
    <Card component={Link} href={`/guilds/${guild.id}`} padding="lg" shadow="xs" className="guild-card">
      <Group gap="md" wrap="nowrap" align="center">
        <GuildAvatar guild={guild} size={56} radius="lg" />
        <Stack gap={4} miw={0} flex={1}>
          <Text fw={600} truncate title={guild.name}>
            {guild.name}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Group gap={6} c="dimmed" wrap="nowrap">
              <IconUsers size={14} />
              <Text size="sm">{formatMembers(guild.approximate_member_count)}</Text>
            </Group>
            {guild.owner ? (
              <Badge variant="light" color="yellow" size="sm" leftSection={<IconCrown size={11} />}>
                Owner
              </Badge>
            ) : null}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
