"use client";

import { Button, Group } from "@mantine/core";
import Link from "next/link";
import { IconSettings, IconUsers } from "~/components/icons.tsx";

const SECTIONS = [
  { key: "settings", label: "Settings", path: "", icon: IconSettings },
  { key: "lobbies", label: "Lobbies", path: "/lobbies", icon: IconUsers },
] as const;

/** The sections of one application's pages, as links (each is its own page). */
export function ApplicationTabs({ applicationId, active }: { applicationId: string; active: (typeof SECTIONS)[number]["key"] }) {
  return (
    <Group component="nav" aria-label="Application sections" gap={4} pb={6} style={{ borderBottom: "1px solid var(--mantine-color-default-border)" }}>
      {SECTIONS.map(({ key, label, path, icon: Icon }) => (
        <Button
          key={key}
          component={Link}
          href={`/applications/${applicationId}${path}`}
          variant={key === active ? "light" : "subtle"}
          color={key === active ? undefined : "gray"}
          size="sm"
          leftSection={<Icon size={16} />}
          aria-current={key === active ? "page" : undefined}
        >
          {label}
        </Button>
      ))}
    </Group>
  );
}
