"use client";

import { Avatar, Badge, Box, Card, Group, Stack, Text, Title, VisuallyHidden, type MantineTheme } from "@mantine/core";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import { useState } from "react";
import { GuardedButton } from "~/components/guarded-button.tsx";
import { IconBan, IconCheck, IconLock, IconTerminal } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { TableEmptyState } from "~/components/table-empty-state.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { commandLabel, defaultPermissionsText } from "./command-display.ts";
import { CommandPermissionsModal, type PermissionsTarget } from "./command-permissions-modal.tsx";
import { CommandName, CommandTypeBadge } from "./command-table.tsx";

type InstalledApplication = RouterOutputs["command"]["guild"]["applications"][number];
type CommandRow = InstalledApplication["commands"][number];
type Overwrite = CommandRow["permissions"][number];

const WIDE = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;
const WIDER = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.md})`;
/** Overwrites shown in a row before "+n more": the editor lists them all. */
const SHOWN = 6;

/** The overwrites of one list, allowed in green, denied in red. */
function OverwriteBadges({ overwrites, none }: { overwrites: readonly Overwrite[]; none: string }) {
  if (overwrites.length === 0)
    return (
      <Text size="xs" c="dimmed">
        {none}
      </Text>
    );
  return (
    <Group gap={4}>
      {overwrites.slice(0, SHOWN).map((overwrite) => (
        <Badge
          key={`${overwrite.type}:${overwrite.id}`}
          size="sm"
          variant="light"
          color={overwrite.permission ? "teal" : "red"}
          tt="none"
          leftSection={overwrite.permission ? <IconCheck size={12} /> : <IconBan size={12} />}
          maw={200}
        >
          {overwrite.name}
          <VisuallyHidden>{overwrite.permission ? " allowed" : " denied"}</VisuallyHidden>
        </Badge>
      ))}
      {overwrites.length > SHOWN ? (
        <Text size="xs" c="dimmed">
          +{overwrites.length - SHOWN} more
        </Text>
      ) : null}
    </Group>
  );
}

/** Whether the viewer may run the command where the server checked: yes, or the decision's reason. */
function UseVerdict({ row, where }: { row: CommandRow; where?: string | null }) {
  // Beside the name on a phone there is no column title to say where it was checked.
  const prefix = where ? `In #${where}: ` : "";
  return row.useDenial ? (
    <Text size="xs" c="red.7">
      {prefix}
      {row.useDenial}
    </Text>
  ) : (
    <Group gap={4} wrap="nowrap" c="teal.7">
      <IconCheck size={14} />
      <Text size="xs">{prefix}You may use it</Text>
    </Group>
  );
}

function WhoMayUse({ row }: { row: CommandRow }) {
  return (
    <Stack gap={4}>
      <OverwriteBadges overwrites={row.permissions} none="The app's settings" />
      <Text size="xs" c="dimmed">
        Default: {defaultPermissionsText(row.command.default_member_permissions)}
      </Text>
    </Stack>
  );
}

type CardProps = { application: InstalledApplication; channelName: string | null; onEdit: (target: PermissionsTarget) => void };

/** One installed application: its app-wide overwrites, and each command with who may use it and whether the viewer may. */
function ApplicationCommandsCard({ application, channelName, onEdit }: CardProps) {
  const count = application.commands.length;
  const columns: DataTableColumn<CommandRow>[] = [
    {
      accessor: "command.name",
      title: "Command",
      render: (row) => (
        <CommandName command={row.command}>
          {/* On a phone the other columns are hidden: what they say comes with the name. */}
          <CommandTypeBadge type={row.command.type} size="xs" hiddenFrom="sm" />
          <Box hiddenFrom="sm">
            <WhoMayUse row={row} />
          </Box>
          <Box hiddenFrom="md">
            <UseVerdict row={row} where={channelName} />
          </Box>
        </CommandName>
      ),
    },
    { accessor: "command.type", title: "Type", width: 100, visibleMediaQuery: WIDE, render: (row) => <CommandTypeBadge type={row.command.type} /> },
    { accessor: "permissions", title: "Who may use it", visibleMediaQuery: WIDE, render: (row) => <WhoMayUse row={row} /> },
    {
      accessor: "useDenial",
      title: channelName ? `You, in #${channelName}` : "You",
      width: 220,
      visibleMediaQuery: WIDER,
      render: (row) => <UseVerdict row={row} />,
    },
    {
      accessor: "actions",
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      width: 140,
      textAlign: "right",
      render: (row) => (
        <GuardedButton
          size="xs"
          variant="default"
          aria-label={`Permissions for ${commandLabel(row.command)}`}
          blockedReason={row.editDenial}
          onClick={() =>
            onEdit({
              applicationId: application.id,
              applicationName: application.name,
              commandId: row.command.id,
              label: commandLabel(row.command),
              defaultMemberPermissions: row.command.default_member_permissions,
            })
          }
        >
          Permissions
        </GuardedButton>
      ),
    },
  ];
  return (
    <Card withBorder p={{ base: "xs", sm: "md" }} component="section" aria-label={`Commands of ${application.name}`}>
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Avatar name={application.name} alt="" color="initials" size={32} radius="md" />
            <Box miw={0}>
              <Text fw={600} truncate>
                {application.name}
              </Text>
              <Text size="xs" c="dimmed">
                {count === 1 ? "1 command" : `${count} commands`}
              </Text>
            </Box>
          </Group>
          {application.hasCommands ? (
            <GuardedButton
              size="xs"
              variant="default"
              aria-label={`Permissions for all commands of ${application.name}`}
              blockedReason={application.all.editDenial}
              onClick={() =>
                onEdit({
                  applicationId: application.id,
                  applicationName: application.name,
                  commandId: application.id,
                  label: null,
                  defaultMemberPermissions: null,
                })
              }
            >
              All commands
            </GuardedButton>
          ) : null}
        </Group>
        {application.hasCommands && application.all.editDenial ? (
          // Every Permissions button says why in its tooltip; the reason for the app's list is shown once, in the open.
          <Group gap={6} wrap="nowrap" c="dimmed">
            <IconLock size={14} />
            <Text size="xs">You can&apos;t change who may use all commands: {application.all.editDenial}</Text>
          </Group>
        ) : null}
        {application.hasCommands ? (
          <Group gap={6} align="center">
            <Text size="xs" fw={500}>
              All commands:
            </Text>
            <OverwriteBadges overwrites={application.all.permissions} none="No overwrites: each command's own settings and defaults apply" />
          </Group>
        ) : null}
        <DataTable<CommandRow>
          withTableBorder
          borderRadius="md"
          verticalSpacing="sm"
          minHeight={count === 0 ? 180 : undefined}
          records={application.commands}
          idAccessor="command.id"
          columns={columns}
          emptyState={
            application.hasCommands ? (
              <TableEmptyState
                icon={<IconTerminal size={26} />}
                title="No commands"
                description="This app has registered no global commands and none for this guild."
              />
            ) : (
              <TableEmptyState
                icon={<IconTerminal size={26} />}
                title="Installed without commands"
                description="It was added without the applications.commands scope, so it holds no commands here."
              />
            )
          }
        />
      </Stack>
    </Card>
  );
}

/** The Integrations page's commands: each installed application's, with who may use them, edited by those the decision lets. */
export function GuildCommands({ guildId }: { guildId: string }) {
  const view = api.command.guild.useQuery({ guildId });
  const [target, setTarget] = useState<PermissionsTarget | null>(null);
  if (view.isError) return <QueryError error={view.error} onRetry={() => void view.refetch()} title="Could not load the apps' commands" />;
  if (!view.data) return <TableSkeleton rows={3} />;
  const { applications, useChannel } = view.data;
  if (applications.length === 0) return null;
  return (
    <Stack gap="md" component="section" aria-labelledby="app-commands-title">
      <Stack gap={4}>
        <Title order={2} fz="lg" id="app-commands-title">
          App commands
        </Title>
        <Text size="sm" c="dimmed">
          What each app lets members run here. A command&apos;s own overwrites come first, then the app&apos;s for all commands, then the command&apos;s default
          permissions.
        </Text>
      </Stack>
      {applications.map((application) => (
        <ApplicationCommandsCard key={application.id} application={application} channelName={useChannel?.name ?? null} onEdit={setTarget} />
      ))}
      <CommandPermissionsModal guildId={guildId} target={target} onClose={() => setTarget(null)} />
    </Stack>
  );
}
