"use client";

import { Avatar, Badge, Box, Card, EmptyState, Group, Stack, Text, VisuallyHidden, type BadgeProps, type MantineTheme } from "@mantine/core";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import { useState } from "react";
import { GuildCommands } from "~/components/commands/guild-commands.tsx";
import { GuardedButton } from "~/components/guarded-button.tsx";
import { useSectionDenials } from "~/components/guild/use-section-denials.ts";
import { IconLock, IconPlug } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { GUILD_INTEGRATIONS_MAX } from "~/server/integrations/integration.schema.ts";
import { api } from "~/trpc/react.tsx";
import { INTEGRATION_KINDS, integrationAddedAt, type IntegrationRow } from "./integration-display.ts";
import { RemoveIntegrationModal } from "./remove-integration-modal.tsx";
import { Time } from "~/components/time/time.tsx";

const WIDE = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;
const WIDER = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.md})`;

function KindBadge({ integration, ...props }: { integration: IntegrationRow } & BadgeProps) {
  const kind = INTEGRATION_KINDS[integration.type];
  return (
    <Badge variant="light" color={kind.color} tt="none" {...props}>
      {kind.label}
    </Badge>
  );
}

/** The bots and services connected to the guild, oldest first; remove one with a reason. */
export function IntegrationsManager({ guildId }: { guildId: string }) {
  const denials = useSectionDenials(guildId);
  // GET /guilds/{id}/integrations and its DELETE share one rule.
  const lockReason = denials?.integrations ?? null;
  const integrations = api.integration.list.useQuery({ guildId }, { enabled: denials !== undefined && !lockReason });
  const [target, setTarget] = useState<IntegrationRow | null>(null);
  const [isRemoveOpen, setRemoveOpen] = useState(false);
  const rows = integrations.data ?? [];

  const columns: DataTableColumn<IntegrationRow>[] = [
    {
      accessor: "type",
      title: "Type",
      width: 170,
      visibleMediaQuery: WIDE,
      render: (integration) => <KindBadge integration={integration} />,
    },
    {
      accessor: "name",
      title: "Name",
      render: (integration) => (
        <Group gap="sm" wrap="nowrap">
          <Avatar name={integration.name} alt="" color="initials" size={32} radius="md" />
          <Box miw={0} maw={{ base: 160, sm: 300 }}>
            <Text size="sm" fw={500} truncate>
              {integration.name}
            </Text>
            {/* On a phone the type column is hidden: its badge comes with the name. */}
            <KindBadge integration={integration} size="xs" hiddenFrom="sm" />
            {integration.user ? (
              <Text size="xs" c="dimmed" truncate>
                Added by {integration.user.global_name ?? integration.user.username}
              </Text>
            ) : null}
          </Box>
        </Group>
      ),
    },
    {
      accessor: "account",
      title: "Account",
      visibleMediaQuery: WIDER,
      render: (integration) => (
        <Box miw={0} maw={220}>
          <Text size="sm" truncate>
            {integration.account.name}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" truncate>
            {integration.account.id}
          </Text>
        </Box>
      ),
    },
    {
      accessor: "id",
      title: "Added",
      noWrap: true,
      visibleMediaQuery: WIDE,
      render: (integration) => (
        <Box>
          <Text size="sm">
            <Time value={integrationAddedAt(integration)} />
          </Text>
          <Text size="xs" c="dimmed">
            <Time value={integrationAddedAt(integration)} exact />
          </Text>
        </Box>
      ),
    },
    {
      accessor: "actions",
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      width: 110,
      textAlign: "right",
      render: (integration) => (
        <GuardedButton
          size="xs"
          variant="default"
          color="red"
          aria-label={`Remove ${integration.name}`}
          blockedReason={lockReason}
          onClick={() => {
            setTarget(integration);
            setRemoveOpen(true);
          }}
        >
          Remove
        </GuardedButton>
      ),
    },
  ];

  return (
    <Stack gap="lg" maw={1080} mx="auto">
      <PageHeader title="Integrations" description="Bots and services connected to this guild." />
      {lockReason ? (
        <Card padding="xl">
          <EmptyState icon={<IconLock size={26} />} variant="light" color="gray" title="You can't view this guild's integrations" description={lockReason} />
        </Card>
      ) : integrations.isError ? (
        <QueryError error={integrations.error} onRetry={() => void integrations.refetch()} title="Could not load integrations" />
      ) : integrations.isPending ? (
        <TableSkeleton rows={3} />
      ) : (
        <Stack gap="xs">
          <DataTable<IntegrationRow>
            withTableBorder
            borderRadius="md"
            verticalSpacing="sm"
            minHeight={rows.length === 0 ? 240 : undefined}
            records={rows}
            columns={columns}
            emptyState={
              <EmptyState
                icon={<IconPlug size={26} />}
                variant="light"
                title="No integrations yet"
                description="Bots added to this guild and linked Twitch or YouTube accounts show up here."
                size="sm"
              />
            }
          />
          {rows.length >= GUILD_INTEGRATIONS_MAX ? (
            <Text size="xs" c="dimmed">
              Showing the {GUILD_INTEGRATIONS_MAX} oldest integrations: the platform answers no more.
            </Text>
          ) : null}
        </Stack>
      )}
      {/* The same rule opens both lists: which apps are installed is the integrations list's. */}
      {denials !== undefined && !lockReason ? <GuildCommands guildId={guildId} /> : null}
      <RemoveIntegrationModal guildId={guildId} integration={target} opened={isRemoveOpen} onClose={() => setRemoveOpen(false)} />
    </Stack>
  );
}
