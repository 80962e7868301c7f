"use client";

import { Button, EmptyState } from "@mantine/core";
import { IconAlertTriangle, IconRefresh } from "~/components/icons.tsx";

export default function GuildError({ reset }: { error: Error; reset: () => void }) {
  return (
    <EmptyState py={64} variant="light" color="red" icon={<IconAlertTriangle size={28} />}>
      <EmptyState.Title order={1}>This page could not be loaded</EmptyState.Title>
      <EmptyState.Description>Something went wrong while loading it. Try again in a moment.</EmptyState.Description>
      <EmptyState.Actions>
        <Button leftSection={<IconRefresh size={16} />} onClick={reset}>
          Try again
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
