"use client";

import { ActionIcon, Tooltip } from "@mantine/core";
import Link from "next/link";
import { IconMessages } from "~/components/icons.tsx";
import { channelMessagesPath } from "./message-types.ts";

/** A channel row's way to the channel's messages; the page itself says when the user may not read them. */
export function MessagesLink({ guildId, channel }: { guildId: string; channel: { id: string; name: string } }) {
  const label = `Messages in ${channel.name}`;
  return (
    <Tooltip label={label}>
      <ActionIcon component={Link} href={channelMessagesPath(guildId, channel.id)} variant="subtle" color="gray" aria-label={label}>
        <IconMessages size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
