"use client";

import { Badge, Card, Code, EmptyState, Group, List, Stack, Text, Title } from "@mantine/core";
import { ApplicationHeader } from "~/components/applications/application-page.tsx";
import { IconTerminal } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { TableEmptyState } from "~/components/table-empty-state.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { COMMAND_TYPES } from "./command-display.ts";
import { CommandTable } from "./command-table.tsx";

type Registry = RouterOutputs["command"]["application"]["global"];

/** How full one registry is: commands of each type against their limit, and today's creates. */
function RegistryUse({ registry, dailyCreates }: { registry: Registry; dailyCreates: number }) {
  return (
    <Group gap="xs" aria-label="Commands used of the limits">
      {registry.limits.map(({ type, used, limit }) => (
        <Badge key={type} variant={used >= limit ? "filled" : "default"} color={used >= limit ? "red" : undefined} tt="none" fw={500}>
          {COMMAND_TYPES[type]?.label ?? type}: {used} / {limit}
        </Badge>
      ))}
      <Badge variant="default" tt="none" fw={500}>
        Created today: {registry.createsToday} / {dailyCreates}
      </Badge>
    </Group>
  );
}

/** An application's registered commands, read-only: its global ones, then each guild's. */
export function ApplicationCommands({ applicationId }: { applicationId: string }) {
  const view = api.command.application.useQuery({ applicationId });
  const data = view.data;
  return (
    <Stack gap="lg" maw={1080} mx="auto">
      <ApplicationHeader applicationId={applicationId} active="commands" />
      <Text c="dimmed" size="sm">
        The commands this application registered with its bot token. Members see them in every guild it is installed in with the applications.commands scope
        (global), or in one guild.
      </Text>
      {view.isError ? (
        <QueryError error={view.error} onRetry={() => void view.refetch()} title="Could not load the commands" />
      ) : !data ? (
        <TableSkeleton rows={3} />
      ) : data.global.commands.length === 0 && data.guilds.length === 0 ? (
        <NoCommands applicationId={applicationId} />
      ) : (
        <>
          <SectionCard id="global-commands" title="Global commands" description="Usable in every guild the application is installed in.">
            <RegistryUse registry={data.global} dailyCreates={data.dailyCreates} />
            <CommandTable
              commands={data.global.commands}
              emptyState={
                <TableEmptyState
                  icon={<IconTerminal size={26} />}
                  title="No global commands"
                  description={`Register them with PUT /applications/${applicationId}/commands and the bot's token.`}
                />
              }
            />
          </SectionCard>
          {data.guilds.length > 0 ? (
            <SectionCard id="guild-commands" title="Guild commands" description="Each registered for one guild, where they show up at once.">
              {data.guilds.map((registry) => (
                <Stack key={registry.guild.id} gap="sm" component="section" aria-label={`Commands of ${registry.guild.name}`}>
                  <Group gap="xs">
                    <Title order={3} fz="md" style={{ overflowWrap: "anywhere" }}>
                      {registry.guild.name}
                    </Title>
                    {registry.installed ? null : (
                      <Badge variant="light" color="yellow" tt="none">
                        Not installed: members there cannot use these
                      </Badge>
                    )}
                  </Group>
                  <RegistryUse registry={registry} dailyCreates={data.dailyCreates} />
                  <CommandTable commands={registry.commands} />
                </Stack>
              ))}
            </SectionCard>
          ) : null}
        </>
      )}
    </Stack>
  );
}

// A path is one long word: on a phone it wraps anywhere rather than widen the page.
const BREAKABLE = { overflowWrap: "anywhere" } as const;

function NoCommands({ applicationId }: { applicationId: string }) {
  return (
    <Card p={{ base: "sm", sm: "xl" }}>
      <EmptyState py={32} variant="light" icon={<IconTerminal size={28} />} title="No commands yet">
        {/* Not EmptyState.Description: that is a paragraph, and a list inside one is not HTML (hydration fails). */}
        <Stack gap="xs" maw={620} mx="auto" ta="left" c="dimmed">
          <Text size="sm">Commands are registered by your bot, with its token (Authorization: Bot …):</Text>
          <List size="sm" spacing={4}>
            <List.Item>
              <Code style={BREAKABLE}>PUT /api/v10/applications/{applicationId}/commands</Code> sets the global commands, usable in every guild the application
              is installed in;
            </List.Item>
            <List.Item>
              <Code style={BREAKABLE}>PUT /api/v10/applications/{applicationId}/guilds/&#123;guild.id&#125;/commands</Code> sets one guild&apos;s.
            </List.Item>
          </List>
          <Text size="sm">A bulk PUT keeps the ids of the commands it matches, so a bot may send its whole list at every start.</Text>
        </Stack>
      </EmptyState>
    </Card>
  );
}
