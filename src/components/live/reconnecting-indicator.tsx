"use client";

import { Affix, Badge, Loader } from "@mantine/core";

/** A small sign, out of the way, while a page's live stream is down: what it shows may be behind until it catches up. */
export function ReconnectingIndicator({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <Affix position={{ bottom: 16, right: 16 }}>
      <Badge role="status" color="yellow" variant="light" size="lg" leftSection={<Loader size={12} color="yellow" />}>
        Reconnecting…
      </Badge>
    </Affix>
  );
}
