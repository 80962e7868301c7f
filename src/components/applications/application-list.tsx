"use client";

import { Anchor, Badge, Button, Card, EmptyState, Group, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import Link from "next/link";
import { IconApps, IconPlus } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { api } from "~/trpc/react.tsx";
import { ApplicationAvatar } from "./application-avatar.tsx";
import type { ApplicationSummary } from "./application-types.ts";
import { CreateApplicationModal } from "./create-application-modal.tsx";
import { Time } from "~/components/time/time.tsx";
import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";

/** The signed-in user's applications, with a way to create one. */
export function ApplicationList() {
  const applications = api.application.list.useQuery();
  const [creating, { open, close }] = useDisclosure(false);

  const createButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={open}>
      New application
    </Button>
  );

  return (
    <Stack gap="lg" maw={1120} mx="auto">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} fz={28}>
            Applications
          </Title>
          <Text c="dimmed">Your games and bots: their bot tokens, privileged intents and lobbies.</Text>
        </div>
        {applications.data?.length ? createButton : null}
      </Group>
      {applications.isPending ? (
        <ListSkeleton />
      ) : applications.isError ? (
        <QueryError error={applications.error} onRetry={() => void applications.refetch()} title="Could not load your applications" />
      ) : applications.data.length === 0 ? (
        <EmptyState
          py={64}
          variant="light"
          icon={<IconApps size={28} />}
          title="No applications yet"
          description="Create an application to get a bot user and its token, then call the API as your bot or run lobbies for your game."
        >
          <EmptyState.Actions>{createButton}</EmptyState.Actions>
        </EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {applications.data.map((application) => (
            <ApplicationCard key={application.id} application={application} />
          ))}
        </SimpleGrid>
      )}
      <CreateApplicationModal opened={creating} onClose={close} />
    </Stack>
  );
}

function ApplicationCard({ application }: { application: ApplicationSummary }) {
  return (
    // The name is the link, stretched over the card: a screen reader hears the name, not the whole card.
    <Card padding="lg" shadow="xs" className="guild-card">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ApplicationAvatar application={application} size={56} radius="lg" />
        <Stack gap={4} miw={0} flex={1}>
          <Anchor
            component={Link}
            href={`/applications/${application.id}`}
            className="card-link"
            fw={600}
            c="inherit"
            underline="never"
            truncate
            title={application.name}
          >
            {application.name}
          </Anchor>
          <Text size="xs" c="dimmed" ff="monospace" truncate>
            ID {application.id}
          </Text>
          <Text size="xs" c="dimmed">
            Created <Time value={snowflakeTimestamp(application.id)} />
          </Text>
          <Group gap={6} mt={4}>
            {application.rateLimitsLifted ? (
              <Badge size="sm" variant="light" color="teal">
                Production rate limits
              </Badge>
            ) : (
              <Badge size="sm" variant="light" color="gray">
                Development rate limits
              </Badge>
            )}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}

function ListSkeleton() {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy="true" aria-label="Loading applications">
      {Array.from({ length: 3 }, (_, i) => (
        <Card key={i} padding="lg">
          <Group gap="md" wrap="nowrap">
            <Skeleton height={56} width={56} radius="lg" />
            <Stack gap={8} flex={1}>
              <Skeleton height={14} width="70%" />
              <Skeleton height={10} width="50%" />
              <Skeleton height={10} width="40%" />
            </Stack>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}
