"use client";

import { Button, Group } from "@mantine/core";
import Link from "next/link";
import { IconHistory, IconSettings, IconTerminal, IconUsers } from "~/components/icons.tsx";
import { api } from "~/trpc/react.tsx";

const SECTIONS = [
  { key: "settings", label: "Settings", path: "", icon: IconSettings },
  { key: "commands", label: "Commands", path: "/commands", icon: IconTerminal },
  { key: "lobbies", label: "Lobbies", path: "/lobbies", icon: IconUsers },
  { key: "inspector", label: "Inspector", path: "/inspector", icon: IconHistory },
] as const;

export type ApplicationSection = (typeof SECTIONS)[number]["key"];

/** The sections of one application's pages, as links (each is its own page); the Inspector only in test mode. */
export function ApplicationTabs({ applicationId, active }: { applicationId: string; active: ApplicationSection }) {
  const testMode = api.inspector.available.useQuery(undefined, { staleTime: Infinity }).data === true;
  const sections = testMode ? SECTIONS : SECTIONS.filter(({ key }) => key !== "inspector");
  return (
    <Group component="nav" aria-label="Application sections" gap={4} pb={6} style={{ borderBottom: "1px solid var(--mantine-color-default-border)" }}>
      {sections.map(({ key, label, path, icon: Icon }) => (
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
