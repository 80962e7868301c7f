"use client";

import { Button, EmptyState } from "@mantine/core";
import type { ReactNode } from "react";

type Props = { icon: ReactNode; title: string; description: string; onClearSearch?: () => void };

/** What a table shows when it has no rows; with `onClearSearch`, a button that clears the search which found nothing. */
export function TableEmptyState({ icon, title, description, onClearSearch }: Props) {
  return (
    <EmptyState icon={icon} variant="light" title={title} description={description} size="sm">
      {onClearSearch ? (
        <EmptyState.Actions>
          {/* The table's empty state lets clicks through to the rows; this button takes them. */}
          <Button variant="default" size="xs" onClick={onClearSearch} style={{ pointerEvents: "auto" }}>
            Clear search
          </Button>
        </EmptyState.Actions>
      ) : null}
    </EmptyState>
  );
}
