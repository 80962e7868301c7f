"use client";

import { Badge, Box, Group, Text, Tooltip } from "@mantine/core";
import { PermissionFlagsBits } from "discord-api-types/v10";
import type { ReactNode } from "react";
import type { ChannelObject } from "./channel-form.tsx";
import { channelTypeInfo } from "./channel-types.ts";

type Props = {
  channel: ChannelObject;
  actions: ReactNode;
  /** A line under the name (a voice channel's status). */
  detail?: ReactNode;
  /** What hangs under the channel (its threads). */
  children?: ReactNode;
};

/** Private: its @everyone overwrite (the role's id is the guild's) denies viewing it. */
function isPrivateChannel(channel: ChannelObject): boolean {
  return channel.permission_overwrites.some((o) => o.id === channel.guild_id && (BigInt(o.deny) & PermissionFlagsBits.ViewChannel) !== 0n);
}

/** One channel in its category: type icon, name, badges, topic, actions, and its threads below. */
export function ChannelRow({ channel, actions, detail, children }: Props) {
  const info = channelTypeInfo(channel.type);
  return (
    <Box className="channel-row" role="listitem" aria-label={channel.name}>
      <Group px="md" py="xs" gap="sm" wrap="nowrap" className="channel-line">
        <Tooltip label={info.label}>
          <Box c="dimmed" style={{ display: "inline-flex" }} role="img" aria-label={`${info.label} channel`}>
            <info.icon size={18} />
          </Box>
        </Tooltip>
        <Box miw={0} flex={1} className="channel-name">
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500} truncate>
              {channel.name}
            </Text>
            {isPrivateChannel(channel) ? (
              <Tooltip label="@everyone cannot view it; only the roles and members its permissions allow">
                <Badge size="xs" color="gray" variant="light">
                  Private
                </Badge>
              </Tooltip>
            ) : null}
            {channel.nsfw ? (
              <Badge size="xs" color="red" variant="light">
                Age-restricted
              </Badge>
            ) : null}
            {channel.rate_limit_per_user ? (
              <Badge size="xs" color="gray" variant="light">
                Slowmode
              </Badge>
            ) : null}
          </Group>
          {channel.topic ? (
            <Text size="xs" c="dimmed" truncate>
              {channel.topic}
            </Text>
          ) : null}
          {detail}
        </Box>
        {actions}
      </Group>
      {children}
    </Box>
  );
}
