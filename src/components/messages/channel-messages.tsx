"use client";

import { Alert, Button, Card, EmptyState, Group, Stack } from "@mantine/core";
import { ChannelType, MessageType } from "discord-api-types/v10";
import { useMemo, useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconLock, IconMessages } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { THREAD_TYPES } from "~/server/channels/channel.dto.ts";
import { BackLink } from "~/components/back-link.tsx";
import { api } from "~/trpc/react.tsx";
import { ChannelMessageSearch } from "./channel-message-search.tsx";
import { DeleteMessageModal } from "./delete-message-modal.tsx";
import { MessageClientActions, type MessageAction } from "./message-client-actions.tsx";
import { MessageComposer } from "./message-composer.tsx";
import { MessageEditor } from "./message-editor.tsx";
import { MessageItem } from "./message-item.tsx";
import { ReactionBar } from "./message-reactions.tsx";
import {
  channelMessagesPath,
  MESSAGE_VIEW_CHANNEL_TYPES,
  type ChannelMessage,
  type ChannelMessagesPage,
  type DashboardMessage,
  type MentionNames,
} from "./message-types.ts";
import { StartThreadModal } from "./start-thread-modal.tsx";
import { useMessageClient } from "./use-message-client.ts";
import { MessagesSkeleton } from "~/components/messages/messages-skeleton.tsx";

/** The names mentions point at, gathered from every loaded page. */
function mentionNames(pages: readonly ChannelMessagesPage[]): MentionNames {
  const users = new Map<string, string>();
  const roles = new Map<string, { name: string; color: number }>();
  const channels = new Map<string, string>();
  for (const page of pages) {
    for (const user of page.users) users.set(user.id, user.name);
    for (const role of page.roles) roles.set(role.id, role);
    for (const channel of page.channels) channels.set(channel.id, channel.name);
    channels.set(page.channel.id, page.channel.name);
    for (const message of page.messages) {
      if (message.thread) channels.set(message.thread.id, message.thread.name);
    }
  }
  return { users, roles, channels };
}

const authorNameOf = (message: DashboardMessage) => (message.webhook_id ? message.author.username : (message.author.global_name ?? message.author.username));
const previewOf = (message: DashboardMessage) => message.content || (message.attachments.length > 0 ? "(files)" : "(no text)");

/**
 * A channel's messages as its readers see them, newest first, with older ones on demand; and
 * what the user's permissions allow, through the services REST uses: post (with files), reply,
 * edit and delete their own, react, pin, start a thread. Others' changes arrive live.
 */
export function ChannelMessages({ guildId, channelId }: { guildId: string; channelId: string }) {
  const query = api.message.list.useInfiniteQuery({ channelId }, { getNextPageParam: (page) => page.nextCursor });
  const [deleting, setDeleting] = useState<DashboardMessage | null>(null);
  const [isSearching, setIsSearching] = useState(false);
  const [replyTo, setReplyTo] = useState<ChannelMessage | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [threadFrom, setThreadFrom] = useState<ChannelMessage | null>(null);
  const client = useMessageClient(channelId);
  const utils = api.useUtils();
  const crosspost = api.message.crosspost.useMutation({
    onSuccess: async () => {
      notifySuccess("It was posted in every channel following this one.", "Message published");
      await utils.message.list.invalidate({ channelId });
    },
    onError: (error) => notifyFailure("Could not publish the message", error),
  });
  const pages = useMemo(() => query.data?.pages ?? [], [query.data]);
  const names = useMemo(() => mentionNames(pages), [pages]);
  const first = pages[0];
  const parentId = first?.channel.parentId;
  const isThread = Boolean(first && parentId && THREAD_TYPES.includes(first.channel.type));
  // A thread goes back to its channel's messages; a forum's post to Channels, as forums hold only posts.
  const parentType = first?.channel.parentType;
  const backToParent = isThread && parentId && typeof parentType === "number" && MESSAGE_VIEW_CHANNEL_TYPES.has(parentType) ? parentId : null;
  const back = (
    <BackLink href={backToParent ? channelMessagesPath(guildId, backToParent) : `/guilds/${guildId}/channels`}>
      {backToParent ? `#${names.channels.get(backToParent) ?? "channel"}` : "Channels"}
    </BackLink>
  );

  if (query.isError) {
    return (
      <Stack gap="lg" maw={960} mx="auto">
        {back}
        <QueryError error={query.error} onRetry={() => void query.refetch()} title="Could not load the messages" />
      </Stack>
    );
  }
  const messages = pages.flatMap((page) => page.messages);
  const byId = new Map(messages.map((message) => [message.id, message]));
  const repliedToOf = (message: ChannelMessage) => {
    if (message.type !== MessageType.Reply || !message.message_reference) return undefined;
    const answered = byId.get(message.message_reference.message_id);
    return answered ? { authorName: authorNameOf(answered), preview: previewOf(answered) } : null;
  };
  const onAction = (action: MessageAction, message: ChannelMessage) => {
    if (action === "reply") setReplyTo(message);
    else if (action === "edit") setEditingId(message.id);
    else if (action === "thread") setThreadFrom(message);
    else client.setPinned(message.id, action === "pin");
  };
  const isAnnouncement = first?.channel.type === ChannelType.GuildAnnouncement;
  const publishOf = (message: DashboardMessage) =>
    isAnnouncement
      ? {
          blockedReason: message.canPublish ? null : "Needs Send Messages, and Manage Messages for others' messages",
          pending: crosspost.isPending && crosspost.variables.messageId === message.id,
          onPublish: (m: DashboardMessage) => crosspost.mutate({ channelId, messageId: m.id }),
        }
      : null;

  return (
    <Stack gap="lg" maw={960} mx="auto">
      {back}
      <PageHeader
        title={first ? `Messages in ${isThread ? "" : "#"}${first.channel.name}` : "Messages"}
        description="What readers of this channel see, newest first. Post, reply and react here as yourself."
      />
      {!first ? (
        <Card withBorder padding={0}>
          <MessagesSkeleton p="md" />
        </Card>
      ) : first.blockedReason ? (
        <Alert color="gray" variant="light" icon={<IconLock size={18} />} title="You cannot read this channel's history">
          {first.blockedReason}.
        </Alert>
      ) : (
        <>
          <ChannelMessageSearch guildId={guildId} channelId={channelId} onActiveChange={setIsSearching} />
          {isSearching ? null : (
            <MessageComposer
              channelId={channelId}
              placeName={isThread ? first.channel.name : `#${first.channel.name}`}
              denials={first.denials}
              replyTo={replyTo && { id: replyTo.id, authorName: authorNameOf(replyTo), preview: previewOf(replyTo) }}
              onCancelReply={() => setReplyTo(null)}
            />
          )}
        </>
      )}
      {!first || first.blockedReason || isSearching ? null : messages.length === 0 ? (
        <Card withBorder>
          <EmptyState
            icon={<IconMessages size={26} />}
            variant="light"
            title="No messages yet"
            description="Messages posted here by members, bots and webhooks will show up in this view."
            size="sm"
          />
        </Card>
      ) : (
        <Card withBorder padding={0} role="feed" aria-label="Messages" aria-busy={query.isFetching}>
          {messages.map((message) => (
            <MessageItem
              key={message.id}
              guildId={guildId}
              message={message}
              names={names}
              deleteBlocked={message.denials.delete}
              onDelete={setDeleting}
              publish={publishOf(message)}
              repliedTo={repliedToOf(message)}
              editor={editingId === message.id ? <MessageEditor channelId={channelId} message={message} onDone={() => setEditingId(null)} /> : undefined}
              reactions={
                <ReactionBar
                  reactions={message.reactions ?? []}
                  joinBlocked={first.denials.joinReaction}
                  pending={client.reacting?.messageId === message.id ? client.reacting.emoji : null}
                  onToggle={(emoji, isMine) => client.toggleReaction(message.id, emoji, isMine)}
                />
              }
              clientActions={
                message.type === MessageType.ChannelPinnedMessage ? null : (
                  <MessageClientActions
                    message={message}
                    authorName={authorNameOf(message)}
                    denials={first.denials}
                    startThread={first.startThread}
                    onAction={onAction}
                    onReact={(m, emoji) => client.toggleReaction(m.id, emoji, false)}
                  />
                )
              }
            />
          ))}
          {query.hasNextPage ? (
            <Group justify="center" p="sm" className="message-more">
              <Button variant="default" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                Load older messages
              </Button>
            </Group>
          ) : null}
        </Card>
      )}
      <DeleteMessageModal channelId={channelId} message={deleting} onClose={() => setDeleting(null)} />
      <StartThreadModal channelId={channelId} message={threadFrom} onClose={() => setThreadFrom(null)} />
    </Stack>
  );
}
