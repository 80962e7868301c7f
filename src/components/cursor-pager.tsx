"use client";

import { Button, Group, Text } from "@mantine/core";
import { useState } from "react";
import { IconChevronLeft, IconChevronRight } from "~/components/icons.tsx";

/** Paging by an `after` cursor: the cursors of the pages before are kept so Previous can go back. */
export function useCursorStack() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    /** The cursor of the page on screen; undefined on the first page. */
    cursor: cursors.at(-1),
    page: cursors.length + 1,
    next: (cursor: string) => setCursors((stack) => [...stack, cursor]),
    previous: () => setCursors((stack) => stack.slice(0, -1)),
    reset: () => setCursors([]),
  };
}
export type CursorStack = ReturnType<typeof useCursorStack>;

/** "Page N" with Previous and Next; Next follows `nextCursor` when the server says there is more. */
export function CursorPager({ pager, nextCursor, busy }: { pager: CursorStack; nextCursor: string | null | undefined; busy: boolean }) {
  // The pager sits under the list: a new page starts reading from the top.
  const go = (turn: () => void) => {
    turn();
    window.scrollTo({ top: 0 });
  };
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        Page {pager.page}
      </Text>
      <Group gap="xs">
        <Button variant="default" leftSection={<IconChevronLeft size={16} />} disabled={pager.page === 1} onClick={() => go(pager.previous)}>
          Previous
        </Button>
        <Button
          variant="default"
          rightSection={<IconChevronRight size={16} />}
          disabled={!nextCursor || busy}
          onClick={() => {
            if (nextCursor) go(() => pager.next(nextCursor));
          }}
        >
          Next
        </Button>
      </Group>
    </Group>
  );
}
