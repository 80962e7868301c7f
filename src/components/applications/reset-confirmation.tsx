"use client";

import { Button, Group, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { IconRefresh } from "~/components/icons.tsx";

/** The question before a credential is reset: what stops working, then Cancel or the red reset button. */
export function ResetConfirmation(props: { children: ReactNode; confirmLabel: string; loading: boolean; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Stack gap="md">
      <Text size="sm">{props.children}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button color="red" leftSection={<IconRefresh size={16} />} loading={props.loading} onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
      </Group>
    </Stack>
  );
}
