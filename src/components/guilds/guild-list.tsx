"use client";

import { Button, EmptyState, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconBuildingCastle, IconPlus } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { api } from "~/trpc/react.tsx";
import { CreateGuildModal } from "./create-guild-modal.tsx";
import { GuildCard } from "./guild-card.tsx";
import { GuildGridSkeleton } from "./guild-grid-skeleton.tsx";

export function GuildList() {
  const guilds = api.guild.list.useQuery();
  const [creating, { open, close }] = useDisclosure(false);

  const createButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={open}>
      Create guild
    </Button>
  );

  return (
    <Stack gap="lg" maw={1120} mx="auto">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} fz={28}>
            Your guilds
          </Title>
          <Text c="dimmed">Guilds you are a member of. Choose one to manage it.</Text>
        </div>
        {guilds.data?.length ? createButton : null}
      </Group>
      {guilds.isPending ? (
        <GuildGridSkeleton />
      ) : guilds.isError ? (
        <QueryError error={guilds.error} onRetry={() => void guilds.refetch()} />
      ) : guilds.data.length === 0 ? (
        <EmptyState
          py={64}
          variant="light"
          icon={<IconBuildingCastle size={28} />}
          title="No guilds yet"
          description="Create a guild to start building your community, or ask someone to invite you to theirs."
        >
          <EmptyState.Actions>{createButton}</EmptyState.Actions>
        </EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {guilds.data.map((guild) => (
            <GuildCard key={guild.id} guild={guild} />
          ))}
        </SimpleGrid>
      )}
      <CreateGuildModal opened={creating} onClose={close} />
    </Stack>
  );
}
