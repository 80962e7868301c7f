"use client";

import { Box, Button, Group, Paper, Text } from "@mantine/core";

type Props = {
  dirty: boolean;
  saving: boolean;
  /** False while the viewer may not save (the page shows why). */
  canSave: boolean;
  onDiscard: () => void;
  /** Without it, Save submits the form the bar is in. */
  onSave?: () => void;
};

/** The bar under a long form: whether anything is unsaved, Discard and Save; it follows the viewport while something is. */
export function SaveBar({ dirty, saving, canSave, onDiscard, onSave }: Props) {
  return (
    <Box pos={dirty ? "sticky" : "static"} bottom={16} style={{ zIndex: 5 }}>
      <Paper withBorder shadow={dirty ? "lg" : "xs"} p="sm" px="md" bg="var(--app-surface-bg)">
        <Group justify="space-between" gap="xs">
          <Text size="sm" c={dirty ? undefined : "dimmed"} fw={dirty ? 500 : undefined} role="status">
            {dirty ? "You have unsaved changes." : "All changes saved."}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Button variant="default" disabled={!dirty || saving} onClick={onDiscard}>
              Discard
            </Button>
            <Button type={onSave ? "button" : "submit"} disabled={!dirty || !canSave} loading={saving} onClick={onSave}>
              Save changes
            </Button>
          </Group>
        </Group>
      </Paper>
    </Box>
  );
}
