"use client";

import { ActionIcon, Box, Menu, Text } from "@mantine/core";
import type { ComponentType, ReactNode } from "react";
import { IconBan, IconClock, IconDots, IconInfoCircle, IconPencil, IconShield, IconUserMinus } from "~/components/icons.tsx";
import { displayName, isTimedOut, type MemberDenials, type MemberObject } from "./member-display.ts";

export type MemberAction = "details" | "nick" | "roles" | "timeout" | "kick" | "ban";

type Item = { action: MemberAction; label: string; icon: ComponentType<{ size?: number }>; denial: string | null; color?: string };

/** The row's actions; one the viewer may not take stays in the menu, disabled, with the reason under it. */
export function MemberActionsMenu({ member, denials, onAction }: { member: MemberObject; denials: MemberDenials; onAction: (action: MemberAction) => void }) {
  const name = displayName(member);
  const items: Item[] = [
    { action: "nick", label: "Change nickname", icon: IconPencil, denial: denials.nick },
    { action: "roles", label: "Edit roles", icon: IconShield, denial: denials.roles },
    { action: "timeout", label: isTimedOut(member) ? "Edit timeout" : "Time out", icon: IconClock, denial: denials.timeout },
  ];
  const removals: Item[] = [
    { action: "kick", label: "Kick", icon: IconUserMinus, denial: denials.kick, color: "red" },
    { action: "ban", label: "Ban", icon: IconBan, denial: denials.ban, color: "red" },
  ];
  const entry = (item: Item): ReactNode => (
    <Menu.Item
      key={item.action}
      color={item.color}
      leftSection={<item.icon size={16} />}
      disabled={item.denial !== null}
      onClick={() => onAction(item.action)}
      aria-description={item.denial ?? undefined}
    >
      {item.label}
      {item.denial ? (
        <Text size="xs" c="dimmed" maw={240} style={{ whiteSpace: "normal" }}>
          {item.denial}
        </Text>
      ) : null}
    </Menu.Item>
  );

  return (
    // The row opens the drawer on click; clicks in the menu (portalled, but React bubbles through portals) stay here.
    <Box onClick={(event) => event.stopPropagation()} style={{ display: "inline-flex" }}>
      <Menu position="bottom-end" withinPortal shadow="md" width={260}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{name}</Menu.Label>
          <Menu.Item leftSection={<IconInfoCircle size={16} />} onClick={() => onAction("details")}>
            Details
          </Menu.Item>
          {items.map(entry)}
          <Menu.Divider />
          {removals.map(entry)}
        </Menu.Dropdown>
      </Menu>
    </Box>
  );
}
