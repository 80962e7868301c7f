"use client";

import { Alert, Avatar, Badge, Button, Card, EmptyState, Grid, Group, NavLink, ScrollArea, Skeleton, Stack, Text, Textarea } from "@mantine/core";
import { useState } from "react";
import { notifyFailure } from "~/components/forms/server-errors.ts";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import { IconMessages } from "~/components/icons.tsx";
import { MessageText } from "~/components/messages/message-content.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { Time } from "~/components/time/time.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";

type Dm = RouterOutputs["dm"]["list"][number];
type DmMessage = RouterOutputs["dm"]["messages"][number];

// DMs have no live stream of their own: the open conversation reads again this often.
const REFRESH_MS = 5_000;
const NO_NAMES = { users: new Map(), roles: new Map(), channels: new Map() };

const displayName = (user: { username: string; global_name: string | null }) => user.global_name ?? user.username;

function UserAvatar({ user, size }: { user: Dm["recipients"][number]; size: number }) {
  return (
    <Avatar size={size} radius="xl" color="initials" name={displayName(user)} src={user.avatar ? cdnImageUrl("avatars", user.id, user.avatar) : null} alt="" />
  );
}

/** The account's Direct messages: conversations bots opened with the user, read and answered here. */
export function DirectMessages() {
  const dms = api.dm.list.useQuery(undefined, { refetchInterval: REFRESH_MS });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = dms.data?.find((dm) => dm.id === selectedId) ?? dms.data?.[0] ?? null;
  return (
    <Stack gap="lg">
      <PageHeader
        title="Direct messages"
        description="Conversations apps' bots started with you. You can answer while you share a server whose members you accept DMs from."
      />
      {dms.error ? (
        <QueryError error={dms.error} onRetry={() => void dms.refetch()} />
      ) : !dms.data ? (
        <Skeleton h={240} />
      ) : dms.data.length === 0 || !selected ? (
        <EmptyState
          icon={<IconMessages size={28} />}
          variant="light"
          title="No direct messages"
          description="When a bot sends you a direct message, the conversation appears here."
        />
      ) : (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <Card padding={4} component="nav" aria-label="Conversations" bg="var(--app-surface-bg)">
              {dms.data.map((dm) => (
                <NavLink
                  key={dm.id}
                  active={dm.id === selected.id}
                  onClick={() => setSelectedId(dm.id)}
                  label={displayName(dm.recipients[0]!)}
                  description={dm.recipients[0]!.bot ? "Bot" : "Person"}
                  leftSection={<UserAvatar user={dm.recipients[0]!} size={28} />}
                  aria-current={dm.id === selected.id ? "page" : undefined}
                />
              ))}
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 8 }}>
            <Conversation key={selected.id} dm={selected} />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}

function Conversation({ dm }: { dm: Dm }) {
  const other = dm.recipients[0]!;
  const messages = api.dm.messages.useQuery({ channelId: dm.id }, { refetchInterval: REFRESH_MS });
  return (
    <Card padding="md" component="section" aria-label={`Conversation with ${displayName(other)}`} bg="var(--app-surface-bg)">
      <Group gap="sm" mb="sm">
        <UserAvatar user={other} size={36} />
        <Text fw={600}>{displayName(other)}</Text>
        {other.bot ? (
          <Badge size="xs" radius="sm" color="indigo" variant="filled">
            Bot
          </Badge>
        ) : null}
      </Group>
      {messages.error ? (
        <QueryError error={messages.error} onRetry={() => void messages.refetch()} />
      ) : !messages.data ? (
        <Skeleton h={160} />
      ) : messages.data.length === 0 ? (
        <Text size="sm" c="dimmed" py="md">
          No messages yet.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={480}>
          <Stack gap="xs" role="log" aria-label="Messages">
            {messages.data.map((message) => (
              <DmMessageItem key={message.id} message={message} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
      <Composer dm={dm} />
    </Card>
  );
}

function DmMessageItem({ message }: { message: DmMessage }) {
  return (
    <Group component="article" align="flex-start" wrap="nowrap" gap="sm" aria-label={`Message from ${displayName(message.author)}`}>
      <UserAvatar user={message.author} size={28} />
      <Stack gap={2} miw={0} flex={1}>
        <Group gap={6} align="baseline">
          <Text size="sm" fw={600}>
            {displayName(message.author)}
          </Text>
          <Text size="xs" c="dimmed">
            <Time value={message.timestamp} />
          </Text>
        </Group>
        {message.content ? <MessageText text={message.content} names={NO_NAMES} /> : null}
        {message.attachments.length > 0 ? (
          <Text size="xs" c="dimmed">
            {message.attachments.length === 1 ? "1 attachment" : `${message.attachments.length} attachments`}
          </Text>
        ) : null}
      </Stack>
    </Group>
  );
}

function Composer({ dm }: { dm: Dm }) {
  const [content, setContent] = useState("");
  const utils = api.useUtils();
  const send = api.dm.send.useMutation({
    onSuccess: async () => {
      setContent("");
      await utils.dm.messages.invalidate({ channelId: dm.id });
    },
    onError: (error) => notifyFailure("Could not send your message", error),
  });
  if (dm.sendBlocked) {
    return (
      <Alert mt="md" color="gray" title="You cannot answer here now">
        {dm.sendBlocked}
      </Alert>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (content.trim()) send.mutate({ channelId: dm.id, content });
      }}
    >
      <Group mt="md" align="flex-end" wrap="nowrap" gap="sm">
        <Textarea
          flex={1}
          autosize
          minRows={1}
          maxRows={6}
          maxLength={2000}
          label={`Message ${displayName(dm.recipients[0]!)}`}
          value={content}
          onChange={(event) => setContent(event.currentTarget.value)}
        />
        <Button type="submit" loading={send.isPending} disabled={!content.trim()}>
          Send
        </Button>
      </Group>
    </form>
  );
}
