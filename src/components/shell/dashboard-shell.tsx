"use client";

import { AppShell, Burger, Group, useMantineTheme } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { usePathname } from "next/navigation";
import { useEffect, type ReactNode } from "react";
import type { DashboardUser } from "~/server/auth/session.ts";
import { Brand } from "./brand.tsx";
import { UserMenu } from "./user-menu.tsx";

/** The page frame: header with the product and the user menu, an optional section navbar. */
export function DashboardShell({ user, navbar, children }: { user: DashboardUser; navbar?: ReactNode; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const pathname = usePathname();
  // On small screens the navbar overlays the page; close it once a section is chosen.
  useEffect(() => close(), [pathname, close]);
  // Folded away on a phone, the navbar is only moved off screen: keep its links out of the tab order too.
  const isPhone = useMediaQuery(`(max-width: ${useMantineTheme().breakpoints.sm})`);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={navbar ? { width: 264, breakpoint: "sm", collapsed: { mobile: !opened } } : undefined}
      padding={{ base: "md", sm: "xl" }}
    >
      <a href="#main-content" className="skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {navbar ? <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" /> : null}
            <Brand />
          </Group>
          <UserMenu user={user} />
        </Group>
      </AppShell.Header>
      {navbar ? (
        <AppShell.Navbar p="md" inert={isPhone === true && !opened}>
          {navbar}
        </AppShell.Navbar>
      ) : null}
      {/* The skip link's target; focusable from it (tabIndex -1) without joining the tab order. */}
      <AppShell.Main id="main-content" tabIndex={-1} bg="var(--app-page-bg)" style={{ outline: "none" }}>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
