"use client";

import { Avatar, Group, Menu, Text, UnstyledButton, useComputedColorScheme, useMantineColorScheme } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { IconApps, IconBook, IconChevronDown, IconKey, IconLogout, IconMessages, IconMoon, IconSettings, IconSun } from "~/components/icons.tsx";
import type { DashboardUser } from "~/server/auth/session.ts";

export function UserMenu({ user }: { user: DashboardUser }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { setColorScheme } = useMantineColorScheme();
  const colorScheme = useComputedColorScheme("light", { getInitialValueInEffect: true });

  async function handleSignOut() {
    try {
      await signOut({ redirect: false });
    } catch {
      notifications.show({ color: "red", title: "Could not sign out", message: "Check your connection and try again." });
      return;
    }
    queryClient.clear();
    router.replace("/signin");
    router.refresh();
  }

  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={`Account menu for ${user.displayName}`} px={6} py={4} style={{ borderRadius: "var(--mantine-radius-md)" }}>
          <Group gap={8} wrap="nowrap">
            {/* No initials: the button's name is what it shows, and initials would be shown but not named. */}
            <Avatar size={30} radius="xl" color="hall" />
            <Text size="sm" fw={500} visibleFrom="xs" maw={160} truncate>
              {user.displayName}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Signed in as</Menu.Label>
        <Text size="sm" px="sm" pb={6} truncate>
          {user.email ?? user.username}
        </Text>
        <Menu.Divider />
        <Menu.Item component={Link} href="/account" leftSection={<IconSettings size={16} />}>
          Account
        </Menu.Item>
        <Menu.Item component={Link} href="/account/messages" leftSection={<IconMessages size={16} />}>
          Direct messages
        </Menu.Item>
        <Menu.Item component={Link} href="/account/authorized-apps" leftSection={<IconKey size={16} />}>
          Authorized apps
        </Menu.Item>
        <Menu.Item component={Link} href="/applications" leftSection={<IconApps size={16} />}>
          Applications
        </Menu.Item>
        <Menu.Item component={Link} href="/reference" leftSection={<IconBook size={16} />}>
          API reference
        </Menu.Item>
        <Menu.Item
          leftSection={colorScheme === "dark" ? <IconSun size={16} /> : <IconMoon size={16} />}
          onClick={() => setColorScheme(colorScheme === "dark" ? "light" : "dark")}
        >
          {colorScheme === "dark" ? "Light theme" : "Dark theme"}
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void handleSignOut()}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
