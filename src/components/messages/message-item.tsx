"use client";

import { Anchor, Avatar, Badge, Box, Group, Stack, Text, Tooltip } from "@mantine/core";
import { MessageFlags, MessageType } from "discord-api-types/v10";
import Link from "next/link";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import type { ReactNode } from "react";
import { IconArrowBackUp, IconPin, IconSpeakerphone, IconThread, IconTrash } from "~/components/icons.tsx";
import { MessageAttachments } from "./message-attachments.tsx";
import { MessageComponents } from "./message-components.tsx";
import { MessageText } from "./message-content.tsx";
import { MessageEmbed } from "./message-embed.tsx";
import { channelMessagesPath, type DashboardEmbed, type DashboardMessage, type MentionNames } from "./message-types.ts";
import { Time } from "~/components/time/time.tsx";
import { formatDateTime } from "~/components/time/time-format.ts";

type Props = {
  guildId: string;
  message: DashboardMessage;
  names: MentionNames;
  /** Why the user may not delete it; null when they may. */
  deleteBlocked?: string | null;
  /** Without it (search results) the message has no delete action. */
  onDelete?: (message: DashboardMessage) => void;
  /** In announcement channels: publish to the following channels (null elsewhere). */
  publish?: { blockedReason: string | null; pending: boolean; onPublish: (message: DashboardMessage) => void } | null;
  /** The channel view's own: react, reply, edit, pin, start a thread. */
  clientActions?: ReactNode;
  /** The message's reactions, as toggles. */
  reactions?: ReactNode;
  /** Shown instead of the text while the author edits it. */
  editor?: ReactNode;
  /** What a reply answers, when that message is loaded; undefined for a message that answers none. */
  repliedTo?: { authorName: string; preview: string } | null;
};

/** What the platform's client says for the system message a pin leaves. */
function systemText(message: DashboardMessage, name: string): string | null {
  if (message.type === MessageType.ChannelPinnedMessage) return `${name} pinned a message to this channel.`;
  return null;
}

/** A message as a reader sees it: who posted it and when, then content, embeds, files, components, its thread. */
export function MessageItem({ guildId, message, names, deleteBlocked, onDelete, publish, clientActions, reactions, editor, repliedTo }: Props) {
  const { author } = message;
  const name = message.webhook_id ? author.username : (author.global_name ?? author.username);
  const system = systemText(message, name);
  return (
    <Group component="article" className="message-item" align="flex-start" wrap="nowrap" gap="sm" px="md" py="sm" aria-label={`Message from ${name}`}>
      <Avatar src={author.avatar ? cdnImageUrl("avatars", author.id, author.avatar) : message.avatarUrl} name={name} color="initials" radius="xl" alt="" />
      <Stack gap={6} miw={0} flex={1}>
        <Group gap={6} wrap="wrap" align="baseline">
          <Text size="sm" fw={600} className="message-author">
            {name}
          </Text>
          {author.bot ? (
            <Badge size="xs" radius="sm" color="indigo" variant="filled">
              {message.webhook_id ? "App" : "Bot"}
            </Badge>
          ) : null}
          <Text size="xs" c="dimmed">
            <Time value={message.timestamp} />
          </Text>
          {message.flags & MessageFlags.Crossposted ? (
            <Badge size="xs" radius="sm" color="teal" variant="light">
              Published
            </Badge>
          ) : null}
          {message.flags & MessageFlags.IsCrosspost ? (
            <Badge size="xs" radius="sm" color="gray" variant="light">
              Followed
            </Badge>
          ) : null}
          {message.pinned ? (
            <Badge size="xs" radius="sm" color="orange" variant="light" leftSection={<IconPin size={10} />}>
              Pinned
            </Badge>
          ) : null}
          {message.edited_timestamp ? (
            <Tooltip label={`Edited ${formatDateTime(message.edited_timestamp)}`}>
              <Text size="xs" c="dimmed">
                (edited)
              </Text>
            </Tooltip>
          ) : null}
        </Group>
        {repliedTo !== undefined ? (
          <Group gap={4} wrap="nowrap" c="dimmed" miw={0}>
            <IconArrowBackUp size={12} style={{ flexShrink: 0 }} />
            <Text size="xs" truncate>
              {repliedTo ? (
                <>
                  Replying to <b>{repliedTo.authorName}</b>: {repliedTo.preview}
                </>
              ) : (
                "Replying to a message not shown here"
              )}
            </Text>
          </Group>
        ) : null}
        {editor ??
          (system ? (
            <Text size="sm" c="dimmed" fs="italic">
              {system}
            </Text>
          ) : message.content ? (
            <MessageText text={message.content} names={names} />
          ) : null)}
        {(message.embeds as DashboardEmbed[]).map((embed, i) => (
          <MessageEmbed key={i} embed={embed} names={names} />
        ))}
        {message.attachments.length > 0 ? <MessageAttachments attachments={message.attachments} /> : null}
        {message.components.length > 0 ? <MessageComponents components={message.components} names={names} /> : null}
        {reactions}
        {message.thread ? (
          <Anchor component={Link} href={channelMessagesPath(guildId, message.thread.id)} size="xs">
            <Group gap={4} component="span">
              <IconThread size={14} />
              Thread: {message.thread.name}
            </Group>
          </Anchor>
        ) : null}
      </Stack>
      <Box className="message-actions">
        {clientActions}
        {publish && !(message.flags & MessageFlags.Crossposted) ? (
          <GuardedAction
            label={`Publish message from ${name}`}
            blockedReason={publish.blockedReason}
            loading={publish.pending}
            onClick={() => publish.onPublish(message)}
          >
            <IconSpeakerphone size={16} />
          </GuardedAction>
        ) : null}
        {onDelete ? (
          <GuardedAction label={`Delete message from ${name}`} blockedReason={deleteBlocked ?? null} color="red" onClick={() => onDelete(message)}>
            <IconTrash size={16} />
          </GuardedAction>
        ) : null}
      </Box>
    </Group>
  );
}
