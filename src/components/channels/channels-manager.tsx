"use client";

import { Badge, Button, Card, EmptyState, Group, Modal, Stack, Text, Tooltip } from "@mantine/core";
import { modals } from "@mantine/modals";
import { ChannelFlags, ChannelType } from "discord-api-types/v10";
import Link from "next/link";
import { useState } from "react";
import { PermissionsLink } from "~/components/channel-permissions/permissions-link.tsx";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconArrowDown, IconArrowUp, IconHash, IconMessagePlus, IconPencil, IconPlus, IconSearch, IconTrash } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { sortChannels } from "~/server/channels/channel.dto.ts";
import { api } from "~/trpc/react.tsx";
import { MessagesLink } from "~/components/messages/messages-link.tsx";
import { MESSAGE_VIEW_CHANNEL_TYPES } from "~/components/messages/message-types.ts";
import { WebhooksLink } from "~/components/webhooks/webhooks-link.tsx";
import { WEBHOOK_CHANNEL_TYPES } from "~/server/webhooks/webhook.schema.ts";
import { ChannelForm, changedChannelBody, toChannelBody, toChannelValues, type ChannelObject, type ChannelValues } from "./channel-form.tsx";
import { ChannelRow } from "./channel-row.tsx";
import { CreatePostModal, type PostParentChoice } from "./create-post-modal.tsx";
import { CreateThreadModal, type ThreadParentChoice } from "./create-thread-modal.tsx";
import { ThreadList, type DashboardThread } from "./thread-list.tsx";
import { VoiceStatusLine } from "./voice-status-line.tsx";

type ChannelGroup = { category: ChannelObject | null; channels: ChannelObject[] };

/** Channels without a category first, then each category with its channels, all in position order. */
function groupChannels(channels: readonly ChannelObject[]): ChannelGroup[] {
  const sorted = sortChannels(channels);
  const categories = sorted.filter((c) => c.type === ChannelType.GuildCategory);
  const known = new Set(categories.map((c) => c.id));
  const loose = sorted.filter((c) => c.type !== ChannelType.GuildCategory && !(c.parent_id && known.has(c.parent_id)));
  return [{ category: null, channels: loose }, ...categories.map((category) => ({ category, channels: sorted.filter((c) => c.parent_id === category.id) }))];
}

type Editor = { mode: "create"; defaults: Partial<ChannelValues> } | { mode: "edit"; channel: ChannelObject };

// What the viewer may do to each channel comes with the rows (channel-dashboard.service.ts); this page only shows it.
export function ChannelsManager({ guildId }: { guildId: string }) {
  const channels = api.channel.rows.useQuery({ guildId });
  const threads = api.thread.list.useQuery({ guildId });
  const voiceStatuses = api.voiceStatus.list.useQuery({ guildId });
  const utils = api.useUtils();
  const [editor, setEditor] = useState<Editor | null>(null);
  const [threadParent, setThreadParent] = useState<ThreadParentChoice | null>(null);
  const [postParent, setPostParent] = useState<PostParentChoice | null>(null);
  const createReason = channels.data?.create ?? null;

  const refresh = () => Promise.all([utils.channel.invalidate(), utils.guild.get.invalidate({ guildId }), utils.thread.list.invalidate({ guildId })]);
  const create = api.channel.create.useMutation({
    onSuccess: async (channel) => {
      notifySuccess(`${channel.name} was created.`, channel.type === ChannelType.GuildCategory ? "Category created" : "Channel created");
      setEditor(null);
      await refresh();
    },
  });
  const modify = api.channel.modify.useMutation({
    onSuccess: async (channel) => {
      notifySuccess(`${channel.name} was updated.`, "Channel saved");
      setEditor(null);
      await refresh();
    },
  });
  const remove = api.channel.delete.useMutation({
    onSuccess: async (channel) => {
      notifySuccess(`${channel.name} was deleted.`, "Channel deleted");
      await refresh();
    },
    onError: (error) => notifyFailure("Could not delete the channel", error),
  });
  const reorder = api.channel.reorder.useMutation({
    onSuccess: refresh,
    onError: (error) => notifyFailure("Could not move the channel", error),
  });

  if (channels.isError) return <QueryError error={channels.error} onRetry={() => void channels.refetch()} title="Could not load channels" />;

  const groups = channels.data ? groupChannels(channels.data.rows.map((row) => row.channel)) : [];
  const denialsOf = new Map(channels.data?.rows.map((row) => [row.channel.id, row.denials]));
  const categories = groups.flatMap((g) => (g.category ? [g.category] : []));
  const threadsByParent = new Map<string | null, DashboardThread[]>();
  for (const thread of threads.data?.threads ?? []) threadsByParent.set(thread.parent_id, [...(threadsByParent.get(thread.parent_id) ?? []), thread]);
  const threadParents = new Map((threads.data?.parents ?? []).map((parent) => [parent.id, parent]));
  const voiceStatusOf = new Map((voiceStatuses.data ?? []).map((row) => [row.channelId, row]));

  /** Swaps a channel with its neighbour and renumbers the siblings 0..n, as the platform's clients do. */
  const move = (siblings: readonly ChannelObject[], channel: ChannelObject, step: -1 | 1) => {
    const order = [...siblings];
    const index = order.findIndex((c) => c.id === channel.id);
    const other = order[index + step];
    if (!other) return;
    order[index] = other;
    order[index + step] = channel;
    const positions = order.flatMap((c, position) => (c.position === position ? [] : [{ id: c.id, position }]));
    reorder.mutate({ guildId, positions });
  };

  const confirmDelete = (channel: ChannelObject) =>
    modals.openConfirmModal({
      title: channel.type === ChannelType.GuildCategory ? "Delete category" : "Delete channel",
      children: (
        <Text size="sm">
          Delete <b>{channel.name}</b>?{" "}
          {channel.type === ChannelType.GuildCategory
            ? "Its channels stay, without a category."
            : `Its messages${threadsByParent.has(channel.id) ? " and threads" : ""} are lost. This cannot be undone.`}
        </Text>
      ),
      labels: { confirm: "Delete", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () => remove.mutate({ channelId: channel.id }),
    });

  const actions = (channel: ChannelObject, siblings: readonly ChannelObject[], index: number) => {
    const denials = denialsOf.get(channel.id);
    return (
      <Group gap={2} wrap="nowrap">
        <GuardedAction
          label={`Move ${channel.name} up`}
          blockedReason={denials?.move ?? (index === 0 ? "Already first" : null)}
          disabled={reorder.isPending}
          onClick={() => move(siblings, channel, -1)}
        >
          <IconArrowUp size={16} />
        </GuardedAction>
        <GuardedAction
          label={`Move ${channel.name} down`}
          blockedReason={denials?.move ?? (index === siblings.length - 1 ? "Already last" : null)}
          disabled={reorder.isPending}
          onClick={() => move(siblings, channel, 1)}
        >
          <IconArrowDown size={16} />
        </GuardedAction>
        <PermissionsLink guildId={guildId} channel={channel} />
        <GuardedAction label={`Edit ${channel.name}`} blockedReason={denials?.edit} onClick={() => setEditor({ mode: "edit", channel })}>
          <IconPencil size={16} />
        </GuardedAction>
        <GuardedAction label={`Delete ${channel.name}`} color="red" blockedReason={denials?.delete} onClick={() => confirmDelete(channel)}>
          <IconTrash size={16} />
        </GuardedAction>
      </Group>
    );
  };

  /** Start a thread here (text and announcement channels, for those who may create one kind or the other), or a post in a forum or media channel. */
  const startThreadAction = (channel: ChannelObject) => {
    const parent = threadParents.get(channel.id);
    if (!parent) return null;
    if (parent.kind === "posts") {
      const choice = {
        id: parent.id,
        name: channel.name,
        canUseModeratedTags: parent.canUseModeratedTags,
        requiresTag: (channel.flags & ChannelFlags.RequireTag) !== 0,
        tags: channel.available_tags ?? [],
      };
      return (
        <GuardedAction
          label={`New post in ${channel.name}`}
          blockedReason={parent.canPost ? null : "Needs Send Messages"}
          onClick={() => setPostParent(choice)}
        >
          <IconMessagePlus size={16} />
        </GuardedAction>
      );
    }
    const canStart = parent.canCreatePublic || parent.canCreatePrivate;
    return (
      <GuardedAction
        label={`Start a thread in ${channel.name}`}
        blockedReason={canStart ? null : "Needs Create Public Threads"}
        onClick={() => setThreadParent({ ...parent, name: channel.name, type: channel.type })}
      >
        <IconMessagePlus size={16} />
      </GuardedAction>
    );
  };

  const channelRow = (channel: ChannelObject, siblings: readonly ChannelObject[], index: number) => {
    const voiceStatus = voiceStatusOf.get(channel.id);
    const channelThreads = threadsByParent.get(channel.id);
    return (
      <ChannelRow
        key={channel.id}
        channel={channel}
        detail={voiceStatus ? <VoiceStatusLine guildId={guildId} channelName={channel.name} row={voiceStatus} /> : null}
        actions={
          <Group gap={2} wrap="nowrap">
            {startThreadAction(channel)}
            {MESSAGE_VIEW_CHANNEL_TYPES.has(channel.type) ? <MessagesLink guildId={guildId} channel={channel} /> : null}
            {WEBHOOK_CHANNEL_TYPES.has(channel.type) ? <WebhooksLink guildId={guildId} channel={channel} /> : null}
            {actions(channel, siblings, index)}
          </Group>
        }
      >
        {channelThreads ? <ThreadList guildId={guildId} parent={channel} threads={channelThreads} /> : null}
      </ChannelRow>
    );
  };

  const totalChannels = channels.data?.rows.length ?? 0;

  return (
    <Stack gap="lg" maw={960} mx="auto">
      <PageHeader
        title="Channels"
        description="Where members talk, in the order they see them."
        actions={
          <Group gap="xs">
            <Button variant="default" component={Link} href={`/guilds/${guildId}/channels/search`} leftSection={<IconSearch size={16} />}>
              Search messages
            </Button>
            <Button
              variant="default"
              disabled={Boolean(createReason)}
              onClick={() => setEditor({ mode: "create", defaults: { type: String(ChannelType.GuildCategory) } })}
            >
              Create category
            </Button>
            <Tooltip label={createReason} disabled={!createReason}>
              <span>
                <Button leftSection={<IconPlus size={16} />} disabled={Boolean(createReason)} onClick={() => setEditor({ mode: "create", defaults: {} })}>
                  Create channel
                </Button>
              </span>
            </Tooltip>
          </Group>
        }
      />

      {threads.isError ? <QueryError error={threads.error} onRetry={() => void threads.refetch()} title="Could not load threads" /> : null}
      {channels.isPending ? (
        <TableSkeleton rows={6} />
      ) : totalChannels === 0 ? (
        <Card padding="xl">
          <EmptyState variant="light" icon={<IconHash size={26} />} title="No channels yet" description="Create a channel so members have somewhere to talk." />
        </Card>
      ) : (
        groups.map((group) => {
          if (!group.category && group.channels.length === 0) return null;
          const categoryIndex = group.category ? categories.indexOf(group.category) : -1;
          const title = group.category?.name ?? "No category";
          return (
            <Card
              key={group.category?.id ?? "none"}
              padding={0}
              component="section"
              aria-label={group.category ? `Category ${title}` : "Channels without a category"}
            >
              <Group justify="space-between" px="md" py="sm" bg="var(--mantine-color-default-hover)" wrap="nowrap" className="channel-line">
                <Group gap="xs" wrap="nowrap" miw={0} className="channel-name">
                  <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.5} truncate>
                    {title}
                  </Text>
                  <Badge size="xs" variant="default">
                    {group.channels.length}
                  </Badge>
                </Group>
                {group.category ? (
                  <Group gap={2} wrap="nowrap">
                    <GuardedAction
                      label={`Add a channel to ${title}`}
                      blockedReason={denialsOf.get(group.category.id)?.createInside}
                      onClick={() => setEditor({ mode: "create", defaults: { parent_id: group.category?.id ?? null } })}
                    >
                      <IconPlus size={16} />
                    </GuardedAction>
                    {actions(group.category, categories, categoryIndex)}
                  </Group>
                ) : null}
              </Group>
              {group.channels.length === 0 ? (
                <Text size="sm" c="dimmed" px="md" py="sm">
                  No channels in this category.
                </Text>
              ) : (
                <div role="list">{group.channels.map((channel, index) => channelRow(channel, group.channels, index))}</div>
              )}
            </Card>
          );
        })
      )}

      <Modal
        opened={editor !== null}
        onClose={() => setEditor(null)}
        title={
          editor?.mode === "edit"
            ? `Edit ${editor.channel.name}`
            : editor?.defaults.type === String(ChannelType.GuildCategory)
              ? "Create category"
              : "Create channel"
        }
        size="lg"
      >
        {editor ? (
          <ChannelForm
            key={editor.mode === "edit" ? editor.channel.id : "new"}
            mode={editor.mode}
            initialValues={editor.mode === "edit" ? toChannelValues(editor.channel) : toChannelValues(null, editor.defaults)}
            categories={categories}
            submitting={create.isPending || modify.isPending}
            onCancel={() => setEditor(null)}
            onSubmit={(values, initial) =>
              editor.mode === "edit"
                ? modify.mutateAsync({ channelId: editor.channel.id, body: changedChannelBody(values, initial) })
                : create.mutateAsync({ guildId, body: toChannelBody(values) })
            }
          />
        ) : null}
      </Modal>
      <CreateThreadModal guildId={guildId} parent={threadParent} onClose={() => setThreadParent(null)} />
      <CreatePostModal guildId={guildId} parent={postParent} onClose={() => setPostParent(null)} />
    </Stack>
  );
}
