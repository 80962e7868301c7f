"use client";

import { Group, Image, Popover, SimpleGrid, Text, Tooltip, UnstyledButton } from "@mantine/core";
import { useState } from "react";
import { emojiImageUrl } from "~/components/expressions/expression-values.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconMoodPlus } from "~/components/icons.tsx";
import type { DashboardMessage } from "./message-types.ts";

type Reaction = NonNullable<DashboardMessage["reactions"]>[number];

/** Emojis offered for a new reaction. */
const PICKER_EMOJIS = ["👍", "👎", "😄", "🎉", "❤️", "😮", "😢", "🙏", "👀", "🔥", "✅", "❌"];

/** How the reaction routes name an emoji: the character itself, or `name:id` for a custom one. */
function reactionParam(emoji: Reaction["emoji"]): string {
  return emoji.id ? `${emoji.name ?? "_"}:${emoji.id}` : (emoji.name ?? "");
}

function ReactionEmoji({ emoji }: { emoji: Reaction["emoji"] }) {
  if (!emoji.id) return <span aria-hidden>{emoji.name}</span>;
  return <Image src={emojiImageUrl({ id: emoji.id, animated: Boolean(emoji.animated) })} alt="" w={18} h={18} fit="contain" />;
}

type BarProps = {
  reactions: readonly Reaction[];
  /** Why the user may not join a reaction already there; null when they may. */
  joinBlocked: string | null;
  /** The emoji whose reaction is being changed, while it is. */
  pending: string | null;
  onToggle: (emoji: string, isMine: boolean) => void;
};

/** A message's reactions, each a toggle of the user's own: pressed when they reacted. */
export function ReactionBar({ reactions, joinBlocked, pending, onToggle }: BarProps) {
  if (reactions.length === 0) return null;
  return (
    <Group gap={6} role="group" aria-label="Reactions">
      {reactions.map((reaction) => {
        const emoji = reactionParam(reaction.emoji);
        const label = `${reaction.emoji.name ?? "emoji"}: ${reaction.count} ${reaction.count === 1 ? "reaction" : "reactions"}${reaction.me ? ", including yours" : ""}`;
        // Taking one's own reaction back is always allowed; joining needs what joinBlocked says.
        const blocked = reaction.me ? null : joinBlocked;
        return (
          <Tooltip key={emoji} label={blocked ?? (reaction.me ? "Take your reaction back" : "React with this too")}>
            <UnstyledButton
              className="message-reaction"
              data-mine={reaction.me || undefined}
              aria-pressed={reaction.me}
              aria-label={blocked ? `${label} (${blocked})` : label}
              disabled={Boolean(blocked) || pending === emoji}
              onClick={() => onToggle(emoji, reaction.me)}
            >
              <Group gap={4} wrap="nowrap">
                <ReactionEmoji emoji={reaction.emoji} />
                <Text size="xs" fw={600} span>
                  {reaction.count}
                </Text>
              </Group>
            </UnstyledButton>
          </Tooltip>
        );
      })}
    </Group>
  );
}

/** Adding a reaction with an emoji of a short list; disabled with the reason where the user may not. */
export function ReactionPicker({ authorName, blockedReason, onPick }: { authorName: string; blockedReason: string | null; onPick: (emoji: string) => void }) {
  const [opened, setOpened] = useState(false);
  return (
    // The roles go on the button itself, not on the wrapper the popover positions against.
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" withinPortal trapFocus withRoles={false}>
      <Popover.Target>
        <span style={{ display: "inline-flex" }}>
          <GuardedAction
            label={`Add a reaction to the message from ${authorName}`}
            blockedReason={blockedReason}
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={() => setOpened((open) => !open)}
          >
            <IconMoodPlus size={16} />
          </GuardedAction>
        </span>
      </Popover.Target>
      <Popover.Dropdown p="xs" role="dialog" aria-label="Pick a reaction">
        <SimpleGrid cols={6} spacing={4}>
          {PICKER_EMOJIS.map((emoji) => (
            <UnstyledButton
              key={emoji}
              className="message-reaction-pick"
              aria-label={`React with ${emoji}`}
              onClick={() => {
                setOpened(false);
                onPick(emoji);
              }}
            >
              {emoji}
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </Popover.Dropdown>
    </Popover>
  );
}
