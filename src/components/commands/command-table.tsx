"use client";

import { Badge, Box, Group, Stack, Text, type MantineTheme } from "@mantine/core";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import type { ReactNode } from "react";
import { COMMAND_TYPES, commandLabel, contextsText, defaultPermissionsText, optionLines, type CommandObject } from "./command-display.ts";

const WIDE = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;
const WIDER = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.md})`;

export function CommandTypeBadge({ type, ...props }: { type: number; size?: "xs" | "sm"; hiddenFrom?: "sm" }) {
  const kind = COMMAND_TYPES[type] ?? { label: `Type ${type}`, color: "gray" };
  return (
    <Badge variant="light" color={kind.color} tt="none" {...props}>
      {kind.label}
    </Badge>
  );
}

/** The command's name as members type it, its description, and an age restriction. */
export function CommandName({ command, children }: { command: CommandObject; children?: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Group gap={6}>
        <Text size="sm" fw={600} ff="monospace" style={{ overflowWrap: "anywhere" }}>
          {commandLabel(command)}
        </Text>
        {command.nsfw ? (
          <Badge size="xs" variant="light" color="red" tt="none">
            Age-restricted
          </Badge>
        ) : null}
      </Group>
      {command.description ? (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {command.description}
        </Text>
      ) : null}
      {children}
    </Stack>
  );
}

function OptionLines({ command, ...props }: { command: CommandObject; hiddenFrom?: "sm" }) {
  const lines = optionLines(command.options);
  if (!lines.length)
    return (
      <Text size="xs" c="dimmed" {...props}>
        No options
      </Text>
    );
  return (
    <Box {...props}>
      {lines.map((line) => (
        <Text key={line} size="xs" ff="monospace" style={{ overflowWrap: "anywhere" }}>
          {line}
        </Text>
      ))}
    </Box>
  );
}

/** An application's commands of one registry, read-only: what each takes, who may use it by default, and where. */
export function CommandTable({ commands, emptyState }: { commands: readonly CommandObject[]; emptyState?: ReactNode }) {
  const columns: DataTableColumn<CommandObject>[] = [
    {
      accessor: "name",
      title: "Command",
      // The same share in every registry's table, so the guilds' tables line up.
      width: "32%",
      render: (command) => (
        <CommandName command={command}>
          {/* On a phone the other columns are hidden: what they say comes with the name. */}
          <CommandTypeBadge type={command.type} size="xs" hiddenFrom="sm" />
          <OptionLines command={command} hiddenFrom="sm" />
          <Text size="xs" c="dimmed" hiddenFrom="md">
            Default: {defaultPermissionsText(command.default_member_permissions)} · {contextsText(command)}
          </Text>
        </CommandName>
      ),
    },
    { accessor: "type", title: "Type", width: 110, visibleMediaQuery: WIDE, render: (command) => <CommandTypeBadge type={command.type} /> },
    { accessor: "options", title: "Options", visibleMediaQuery: WIDE, render: (command) => <OptionLines command={command} /> },
    {
      accessor: "default_member_permissions",
      title: "Default permissions",
      width: 190,
      visibleMediaQuery: WIDER,
      render: (command) => <Text size="sm">{defaultPermissionsText(command.default_member_permissions)}</Text>,
    },
    { accessor: "contexts", title: "Contexts", width: 170, visibleMediaQuery: WIDER, render: (command) => <Text size="sm">{contextsText(command)}</Text> },
  ];
  return (
    <DataTable<CommandObject>
      withTableBorder
      borderRadius="md"
      verticalSpacing="sm"
      minHeight={commands.length === 0 ? 200 : undefined}
      records={[...commands]}
      idAccessor="id"
      columns={columns}
      emptyState={emptyState}
    />
  );
}
