"use client";

import { AppShell, Box, Group, Loader, NavLink, ScrollArea, Skeleton, Stack, Text } from "@mantine/core";
import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { formatMembers } from "~/components/format.ts";
import { IconChevronLeft } from "~/components/icons.tsx";
import { api } from "~/trpc/react.tsx";
import { GuildAvatar } from "./guild-avatar.tsx";
import { GUILD_SECTIONS, guildSectionHref } from "./guild-sections.ts";

export function GuildNavbar({ guildId }: { guildId: string }) {
  const pathname = usePathname();
  const guild = api.guild.get.useQuery({ guildId });

  return (
    <>
      <AppShell.Section>
        <NavLink component={Link} href="/" label="All guilds" leftSection={<IconChevronLeft size={16} />} c="dimmed" mb="xs" />
        <Group gap="sm" wrap="nowrap" px="xs" pb="md">
          {guild.data ? (
            <>
              <GuildAvatar guild={guild.data} size={40} radius="md" />
              <Box miw={0}>
                <Text fw={600} truncate>
                  {guild.data.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatMembers(guild.data.approximate_member_count)}
                </Text>
              </Box>
            </>
          ) : (
            <>
              <Skeleton height={40} width={40} radius="md" />
              <Stack gap={6} flex={1}>
                <Skeleton height={12} width="70%" />
                <Skeleton height={10} width="40%" />
              </Stack>
            </>
          )}
        </Group>
      </AppShell.Section>
      <AppShell.Section grow component={ScrollArea}>
        <nav aria-label="Guild sections">
          {GUILD_SECTIONS.map((section) => {
            const href = guildSectionHref(guildId, section.segment);
            const active = section.segment ? pathname.startsWith(href) : pathname === href;
            return (
              <NavLink
                key={section.segment}
                component={Link}
                href={href}
                label={section.label}
                leftSection={<section.icon size={18} />}
                rightSection={<NavigationPending />}
                active={active}
                aria-current={active ? "page" : undefined}
                variant="light"
                style={{ borderRadius: "var(--mantine-radius-md)" }}
                mb={2}
              />
            );
          })}
        </nav>
      </AppShell.Section>
    </>
  );
}

/** A section arrives whole from the server (there is no loading skeleton); this marks the link on its way. */
function NavigationPending() {
  const { pending } = useLinkStatus();
  return pending ? <Loader size={14} aria-hidden /> : null;
}
