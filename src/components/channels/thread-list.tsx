"use client";

import { Badge, Box, Button, Group, Modal, Text, Tooltip } from "@mantine/core";
import { ChannelType } from "discord-api-types/v10";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconArchive, IconLock, IconLockOpen, IconThread, IconTrash, IconUsers } from "~/components/icons.tsx";
import { ReasonConfirm } from "~/components/members/reason-input.tsx";
import { MessagesLink } from "~/components/messages/messages-link.tsx";
import { isForumType } from "~/server/threads/thread.dto.ts";
import { api, type RouterOutputs } from "~/trpc/react.tsx";

export type DashboardThread = RouterOutputs["thread"]["list"]["threads"][number];
/** The channel the threads hang under: a forum's or media channel's threads are its posts, with its tags. */
export type ThreadParent = { name: string; type: number; available_tags?: readonly { id: string; name: string }[] };

const THREAD_KINDS: Record<number, string> = {
  [ChannelType.PublicThread]: "Public",
  [ChannelType.PrivateThread]: "Private",
  [ChannelType.AnnouncementThread]: "Announcement",
};
const MANAGE_REASON = "Needs Manage Threads";

/** Why the user may not archive or unarchive the thread, or null when they may. */
function archiveBlock(thread: DashboardThread): string | null {
  const { rights } = thread;
  if (thread.thread_metadata.archived) {
    if (rights.canUnarchive) return null;
    return thread.thread_metadata.locked ? "Locked: needs Manage Threads" : "Needs Send Messages in Threads";
  }
  return rights.canManage || rights.isStarter ? null : "Needs Manage Threads or to have started it";
}

/** The threads of one channel, under it: kind (or a post's tags), state, members, and archive, lock and delete. */
export function ThreadList({ guildId, parent, threads }: { guildId: string; parent: ThreadParent; threads: readonly DashboardThread[] }) {
  const parentName = parent.name;
  const isForum = isForumType(parent.type);
  const tagNames = new Map((parent.available_tags ?? []).map((tag) => [tag.id, tag.name]));
  const utils = api.useUtils();
  const [deleting, setDeleting] = useState<DashboardThread | null>(null);
  const [isShowingArchived, setShowingArchived] = useState(false);
  const archivedCount = threads.filter((thread) => thread.thread_metadata.archived).length;
  const shown = isShowingArchived ? threads : threads.filter((thread) => !thread.thread_metadata.archived);
  const refresh = () => utils.thread.list.invalidate({ guildId });
  const modify = api.thread.modify.useMutation({
    onSuccess: async (thread, { body }) => {
      const done = body.archived === true ? "archived" : body.archived === false ? "unarchived" : body.locked ? "locked" : "unlocked";
      notifySuccess(`${thread.name} was ${done}.`, "Thread saved");
      await refresh();
    },
    onError: (error) => notifyFailure("Could not change the thread", error),
  });
  const remove = api.thread.delete.useMutation({
    onSuccess: async (thread) => {
      notifySuccess(`${thread.name} was deleted.`, "Thread deleted");
      setDeleting(null);
      await refresh();
    },
    onError: (error) => notifyFailure("Could not delete the thread", error),
  });

  return (
    <Box pb={4}>
      <Box role="list" aria-label={`Threads in ${parentName}`}>
        {shown.map((thread) => {
          const { archived, locked } = thread.thread_metadata;
          const manageBlock = thread.rights.canManage ? null : MANAGE_REASON;
          return (
            <Group
              key={thread.id}
              pl={{ base: 28, sm: 42 }}
              pr="md"
              py={4}
              gap="sm"
              wrap="nowrap"
              className="thread-line"
              role="listitem"
              aria-label={thread.name}
            >
              <Box c="dimmed" style={{ display: "inline-flex" }}>
                <IconThread size={16} />
              </Box>
              <Group gap={6} miw={0} flex={1} wrap="wrap" style={{ rowGap: 2 }}>
                <Text size="sm" truncate c={archived ? "dimmed" : undefined}>
                  {thread.name}
                </Text>
                <Badge size="xs" variant="outline" color="gray">
                  {isForum ? "Post" : (THREAD_KINDS[thread.type] ?? "Thread")}
                </Badge>
                {(thread.applied_tags ?? []).map((tagId) => (
                  <Badge key={tagId} size="xs" variant="light" color="blue">
                    {tagNames.get(tagId) ?? "unknown tag"}
                  </Badge>
                ))}
                {archived ? (
                  <Badge size="xs" variant="light" color="gray">
                    Archived
                  </Badge>
                ) : null}
                {locked ? (
                  <Badge size="xs" variant="light" color="orange">
                    Locked
                  </Badge>
                ) : null}
                <Tooltip label={`${thread.member_count}${thread.member_count >= 50 ? "+" : ""} members`}>
                  <Group gap={2} c="dimmed" wrap="nowrap" role="img" aria-label={`${thread.member_count} members`}>
                    <IconUsers size={14} />
                    <Text size="xs">{thread.member_count}</Text>
                  </Group>
                </Tooltip>
              </Group>
              <Group gap={2} wrap="nowrap">
                <MessagesLink guildId={guildId} channel={thread} />
                <GuardedAction
                  label={`${archived ? "Unarchive" : "Archive"} ${thread.name}`}
                  blockedReason={archiveBlock(thread)}
                  disabled={modify.isPending}
                  onClick={() => modify.mutate({ channelId: thread.id, body: { archived: !archived } })}
                >
                  <IconArchive size={16} />
                </GuardedAction>
                <GuardedAction
                  label={`${locked ? "Unlock" : "Lock"} ${thread.name}`}
                  blockedReason={manageBlock ?? (archived ? "Unarchive it first" : null)}
                  disabled={modify.isPending}
                  onClick={() => modify.mutate({ channelId: thread.id, body: { locked: !locked } })}
                >
                  {locked ? <IconLockOpen size={16} /> : <IconLock size={16} />}
                </GuardedAction>
                <GuardedAction label={`Delete ${thread.name}`} color="red" blockedReason={manageBlock} onClick={() => setDeleting(thread)}>
                  <IconTrash size={16} />
                </GuardedAction>
              </Group>
            </Group>
          );
        })}
      </Box>
      {/* Outside the list, which holds only its threads. */}
      {archivedCount > 0 ? (
        <Button variant="subtle" color="gray" size="compact-xs" ml={{ base: 24, sm: 38 }} onClick={() => setShowingArchived(!isShowingArchived)}>
          {isShowingArchived ? "Hide archived threads" : `Show ${archivedCount} archived ${archivedCount === 1 ? "thread" : "threads"}`}
        </Button>
      ) : null}
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete thread">
        {deleting ? (
          <ReasonConfirm
            key={deleting.id}
            confirmLabel="Delete thread"
            loading={remove.isPending}
            onCancel={() => setDeleting(null)}
            onConfirm={(reason) => remove.mutate({ channelId: deleting.id, reason })}
          >
            <Text size="sm">
              Delete the thread <b>{deleting.name}</b> in #{parentName}? Its messages are lost. This cannot be undone.
            </Text>
          </ReasonConfirm>
        ) : null}
      </Modal>
    </Box>
  );
}
