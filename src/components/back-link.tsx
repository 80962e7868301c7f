"use client";

import { Anchor, Group } from "@mantine/core";
import Link from "next/link";
import type { ReactNode } from "react";
import { IconChevronLeft } from "~/components/icons.tsx";

/** The quiet link above a page's title back to where it was opened from. */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Anchor component={Link} href={href} size="sm" c="dimmed">
      <Group gap={4} component="span">
        <IconChevronLeft size={14} />
        {children}
      </Group>
    </Anchor>
  );
}
