"use client";

import { ActionIcon, Tooltip } from "@mantine/core";
import Link from "next/link";
import { IconKey } from "~/components/icons.tsx";

/** A channel's or category's way to its permissions; the page itself says what the user may not change. */
export function PermissionsLink({ guildId, channel }: { guildId: string; channel: { id: string; name: string } }) {
  const label = `Permissions of ${channel.name}`;
  return (
    <Tooltip label={label}>
      <ActionIcon component={Link} href={`/guilds/${guildId}/channels/${channel.id}/permissions`} variant="subtle" color="gray" aria-label={label}>
        <IconKey size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
