"use client";

import { Anchor, Avatar, Box, Button, Card, EmptyState, Group, Stack, Text } from "@mantine/core";
import { modals } from "@mantine/modals";
import Link from "next/link";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import { IconAlertTriangle, IconMessages, IconPencil, IconShield, IconTrash } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { api } from "~/trpc/react.tsx";
import { LOBBY_REFRESH_MS, UNKNOWN_LOBBY_CODE, userName, type LobbyMessage } from "./lobby-format.ts";
import { MetadataLines } from "./metadata-pairs.tsx";
import { ModerationMetadataModal } from "./moderation-metadata-modal.tsx";
import { MessagesSkeleton } from "~/components/messages/messages-skeleton.tsx";
import { Time } from "~/components/time/time.tsx";

/** A lobby's messages, newest first with older ones on demand; moderation metadata and deletion per message. */
export function LobbyMessages({ applicationId, lobbyId }: { applicationId: string; lobbyId: string }) {
  const utils = api.useUtils();
  const query = api.lobby.messages.useInfiniteQuery(
    { applicationId, lobbyId },
    { getNextPageParam: (page) => page.nextCursor, refetchInterval: LOBBY_REFRESH_MS },
  );
  const [editing, setEditing] = useState<LobbyMessage | null>(null);
  const remove = api.lobby.deleteMessage.useMutation({
    onSuccess: async () => {
      notifySuccess("Members no longer see it.", "Message deleted");
      await utils.lobby.messages.invalidate({ applicationId, lobbyId });
    },
    onError: (error) => notifyFailure("Could not delete the message", error),
  });

  // The page says so when the lobby itself has ended.
  if (query.error?.data?.domainCode === UNKNOWN_LOBBY_CODE) return null;
  if (query.isError && !query.data) return <QueryError error={query.error} onRetry={() => void query.refetch()} title="Could not load the messages" />;
  if (!query.data) return <MessagesSkeleton />;
  const messages = query.data.pages.flatMap((page) => page.messages);
  if (messages.length === 0) {
    return (
      <EmptyState
        icon={<IconMessages size={24} />}
        variant="light"
        size="sm"
        title="No messages yet"
        description="Members send messages with POST /lobbies/{id}/messages from their game clients."
      />
    );
  }

  const confirmDelete = (message: LobbyMessage) =>
    modals.openConfirmModal({
      title: "Delete message",
      children: (
        <Stack gap="xs">
          <Text size="sm">
            Delete this message from <b>{userName(message.author)}</b>? Members&apos; game clients drop it. A copy already forwarded to the linked channel stays
            there.
          </Text>
          <Text size="sm" c="dimmed" lineClamp={3} className="message-text">
            {message.content}
          </Text>
        </Stack>
      ),
      labels: { confirm: "Delete message", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () => remove.mutate({ applicationId, lobbyId, messageId: message.id }),
    });

  return (
    <>
      <Card withBorder padding={0} role="feed" aria-label="Lobby messages" aria-busy={query.isFetching}>
        {messages.map((message) => (
          <LobbyMessageItem key={message.id} message={message} onEdit={setEditing} onDelete={confirmDelete} />
        ))}
        {query.hasNextPage ? (
          <Group justify="center" p="sm" className="message-more">
            <Button variant="default" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              Load older messages
            </Button>
          </Group>
        ) : null}
      </Card>
      <ModerationMetadataModal applicationId={applicationId} lobbyId={lobbyId} message={editing} onClose={() => setEditing(null)} />
    </>
  );
}

type ItemProps = { message: LobbyMessage; onEdit: (message: LobbyMessage) => void; onDelete: (message: LobbyMessage) => void };

function LobbyMessageItem({ message, onEdit, onDelete }: ItemProps) {
  const { author } = message;
  const name = userName(author);
  return (
    <Group component="article" className="message-item" align="flex-start" wrap="nowrap" gap="sm" px="md" py="sm" aria-label={`Message from ${name}`}>
      <Avatar src={author.avatar ? cdnImageUrl("avatars", author.id, author.avatar) : null} name={name} color="initials" radius="xl" alt="" visibleFrom="xs" />
      <Stack gap={6} miw={0} flex={1}>
        <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
          <Group gap={6} wrap="wrap" align="baseline" miw={0}>
            <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
              {name}
            </Text>
            <Text size="xs" c="dimmed">
              <Time value={message.createdAt} />
            </Text>
          </Group>
          <Group gap={2} wrap="nowrap">
            <GuardedAction label={`Edit moderation metadata of the message from ${name}`} onClick={() => onEdit(message)}>
              <IconPencil size={16} />
            </GuardedAction>
            <GuardedAction label={`Delete message from ${name}`} color="red" onClick={() => onDelete(message)}>
              <IconTrash size={16} />
            </GuardedAction>
          </Group>
        </Group>
        <Text size="sm" className="message-text">
          {message.content}
        </Text>
        {message.metadata ? (
          <Box>
            <Text size="xs" c="dimmed">
              Metadata (for members&apos; clients)
            </Text>
            <MetadataLines metadata={message.metadata} label="Message metadata" />
          </Box>
        ) : null}
        {message.moderationMetadata ? (
          <Box p="xs" bg="var(--mantine-color-orange-light)" style={{ borderRadius: "var(--mantine-radius-sm)" }}>
            <Group gap={4} mb={2} wrap="nowrap">
              <IconShield size={14} />
              <Text size="xs" fw={600}>
                Moderation metadata
              </Text>
            </Group>
            <MetadataLines metadata={message.moderationMetadata} label="Moderation metadata" />
          </Box>
        ) : null}
        <Forwarding message={message} />
      </Stack>
    </Group>
  );
}

function Forwarding({ message }: { message: LobbyMessage }) {
  const { forwarding } = message;
  if (forwarding.state === "none") return null;
  if (forwarding.state === "failed") {
    return (
      <Group gap={4} wrap="nowrap" c="red">
        <IconAlertTriangle size={14} style={{ flexShrink: 0 }} />
        <Text size="xs" className="message-text">
          Not forwarded: {forwarding.reason}
        </Text>
      </Group>
    );
  }
  const { channel } = forwarding;
  return (
    <Text size="xs" c="dimmed">
      {!channel ? (
        "Forwarded to the linked channel; the copy has since been deleted"
      ) : channel.guildId ? (
        <>
          Forwarded to{" "}
          <Anchor component={Link} href={`/guilds/${channel.guildId}/channels/${channel.id}/messages`} size="xs">
            #{channel.name}
          </Anchor>
        </>
      ) : (
        `Forwarded to #${channel.name}`
      )}
    </Text>
  );
}
