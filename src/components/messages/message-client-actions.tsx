"use client";

import { ActionIcon, Group, Menu, Text } from "@mantine/core";
import type { ComponentType } from "react";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconArrowBackUp, IconDots, IconPencil, IconPin, IconThread } from "~/components/icons.tsx";
import { ReactionPicker } from "./message-reactions.tsx";
import type { ChannelMessage, ChannelMessagesPage } from "./message-types.ts";

export type MessageAction = "reply" | "edit" | "pin" | "unpin" | "thread";

type Props = {
  message: ChannelMessage;
  authorName: string;
  denials: ChannelMessagesPage["denials"];
  /** Null where threads do not start from this channel's messages. */
  startThread: ChannelMessagesPage["startThread"];
  onAction: (action: MessageAction, message: ChannelMessage) => void;
  onReact: (message: ChannelMessage, emoji: string) => void;
};

type Item = { action: MessageAction; label: string; icon: ComponentType<{ size?: number }>; denial: string | null };

/** What a member may do to a message beyond reading it: react, reply, edit their own, and (in a menu) pin and start a thread; each refusal says why. */
export function MessageClientActions({ message, authorName, denials, startThread, onAction, onReact }: Props) {
  const items: Item[] = [
    message.pinned
      ? { action: "unpin", label: "Unpin message", icon: IconPin, denial: denials.pin }
      : { action: "pin", label: "Pin message", icon: IconPin, denial: denials.pin },
    // A message starts one thread at most; the link to it shows instead.
    ...(startThread && !message.thread ? [{ action: "thread" as const, label: "Start a thread", icon: IconThread, denial: startThread.denial }] : []),
  ];
  return (
    <Group gap={0} wrap="nowrap">
      <ReactionPicker authorName={authorName} blockedReason={denials.react} onPick={(emoji) => onReact(message, emoji)} />
      <GuardedAction label={`Reply to ${authorName}`} blockedReason={denials.reply} onClick={() => onAction("reply", message)}>
        <IconArrowBackUp size={16} />
      </GuardedAction>
      {/* Only the author edits; others are not offered it at all. */}
      {message.denials.edit === null ? (
        <GuardedAction label="Edit your message" onClick={() => onAction("edit", message)}>
          <IconPencil size={16} />
        </GuardedAction>
      ) : null}
      <Menu position="bottom-end" withinPortal shadow="md" width={260}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`More actions for the message from ${authorName}`}>
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {items.map((item) => (
            <Menu.Item
              key={item.action}
              leftSection={<item.icon size={16} />}
              disabled={item.denial !== null}
              onClick={() => onAction(item.action, message)}
              aria-description={item.denial ?? undefined}
            >
              {item.label}
              {item.denial ? (
                <Text size="xs" c="dimmed" maw={220} style={{ whiteSpace: "normal" }}>
                  {item.denial}
                </Text>
              ) : null}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
