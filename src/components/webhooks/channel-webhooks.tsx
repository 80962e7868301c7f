"use client";

import { Alert, Avatar, Button, EmptyState, Group, Stack, Text, VisuallyHidden, type MantineTheme } from "@mantine/core";
import { ChannelType, WebhookType } from "discord-api-types/v10";
import { DataTable, type DataTableColumn } from "mantine-datatable";
import { useState } from "react";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { GuardedButton } from "~/components/guarded-button.tsx";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import { IconLock, IconPencil, IconPlus, IconSend, IconSpeakerphone, IconTrash, IconWebhook } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { BackLink } from "~/components/back-link.tsx";
import { api } from "~/trpc/react.tsx";
import { DeleteWebhookModal } from "./delete-webhook-modal.tsx";
import { FollowChannelModal } from "./follow-channel-modal.tsx";
import { SendTestModal } from "./send-test-modal.tsx";
import { WebhookFormModal } from "./webhook-form-modal.tsx";
import type { ChannelWebhooksView, DashboardWebhook } from "./webhook-types.ts";
import { CopyWebhookUrl } from "./webhook-url-field.tsx";
import { Time } from "~/components/time/time.tsx";
import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";

type Editor = { webhook: DashboardWebhook | null };

/** Narrow screens keep the name and the actions. */
const WIDE = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;

/** A channel's webhooks: list, create, edit (name, avatar, channel), copy the URL, delete; an announcement channel can be followed. */
export function ChannelWebhooks({ guildId, channelId }: { guildId: string; channelId: string }) {
  const view = api.webhook.channel.useQuery({ channelId });
  const [editor, setEditor] = useState<Editor | null>(null);
  const [deleting, setDeleting] = useState<DashboardWebhook | null>(null);
  const [testing, setTesting] = useState<DashboardWebhook | null>(null);
  const [following, setFollowing] = useState(false);
  const back = <BackLink href={`/guilds/${guildId}/channels`}>Channels</BackLink>;

  if (view.isError) {
    return (
      <Stack gap="lg" maw={960} mx="auto">
        {back}
        <QueryError error={view.error} onRetry={() => void view.refetch()} title="Could not load the webhooks" />
      </Stack>
    );
  }
  const data = view.data;

  return (
    <Stack gap="lg" maw={960} mx="auto">
      {back}
      <PageHeader
        title={data ? `Webhooks of #${data.channel.name}` : "Webhooks"}
        description="Webhooks let other services post messages in this channel through a secret URL."
        actions={
          <Group gap="sm">
            {data?.channel.type === ChannelType.GuildAnnouncement ? (
              <Button variant="default" leftSection={<IconSpeakerphone size={16} />} onClick={() => setFollowing(true)}>
                Follow into…
              </Button>
            ) : null}
            <GuardedButton
              leftSection={<IconPlus size={16} />}
              blockedReason={data ? data.blockedReason : "Loading"}
              onClick={() => setEditor({ webhook: null })}
            >
              Create webhook
            </GuardedButton>
          </Group>
        }
      />
      {!data ? (
        <TableSkeleton rows={3} />
      ) : data.blockedReason ? (
        <Alert color="gray" variant="light" icon={<IconLock size={18} />} title="You cannot manage these webhooks">
          {data.blockedReason}.
        </Alert>
      ) : (
        <WebhookTable view={data} onEdit={(webhook) => setEditor({ webhook })} onTest={setTesting} onDelete={setDeleting} />
      )}
      {data ? <WebhookFormModal view={data} webhook={editor?.webhook ?? null} opened={editor !== null} onClose={() => setEditor(null)} /> : null}
      <DeleteWebhookModal channelId={channelId} webhook={deleting} onClose={() => setDeleting(null)} />
      <SendTestModal guildId={guildId} channelName={data?.channel.name ?? ""} webhook={testing} onClose={() => setTesting(null)} />
      {data ? <FollowChannelModal channel={data.channel} opened={following} onClose={() => setFollowing(false)} /> : null}
    </Stack>
  );
}

type TableProps = {
  view: ChannelWebhooksView;
  onEdit: (webhook: DashboardWebhook) => void;
  onTest: (webhook: DashboardWebhook) => void;
  onDelete: (webhook: DashboardWebhook) => void;
};

function WebhookTable({ view, onEdit, onTest, onDelete }: TableProps) {
  const columns: DataTableColumn<DashboardWebhook>[] = [
    {
      accessor: "name",
      title: "Webhook",
      render: (webhook) => (
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Avatar src={webhook.avatar ? cdnImageUrl("avatars", webhook.id, webhook.avatar) : null} name={webhook.name} color="initials" size="sm" alt="" />
          <Stack gap={0} miw={0}>
            <Text size="sm" fw={500} truncate maw={{ base: 140, sm: 360 }} title={webhook.name}>
              {webhook.name}
            </Text>
            {webhook.type === WebhookType.ChannelFollower ? (
              <Text size="xs" c="dimmed" truncate maw={{ base: 140, sm: 360 }}>
                Follows {webhook.source_channel ? `#${webhook.source_channel.name}` : "a deleted channel"}
                {webhook.source_guild ? ` of ${webhook.source_guild.name}` : ""}
              </Text>
            ) : null}
          </Stack>
        </Group>
      ),
    },
    {
      accessor: "user",
      title: "Created by",
      visibleMediaQuery: WIDE,
      render: (webhook) => (
        <Text size="sm" truncate c={webhook.user ? undefined : "dimmed"}>
          {webhook.user ? (webhook.user.global_name ?? webhook.user.username) : "Unknown"}
        </Text>
      ),
    },
    {
      accessor: "id",
      title: "Created",
      noWrap: true,
      visibleMediaQuery: WIDE,
      render: (webhook) => (
        <Text size="sm">
          <Time value={snowflakeTimestamp(webhook.id)} />
        </Text>
      ),
    },
    {
      accessor: "actions",
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      textAlign: "right",
      render: (webhook) => (
        <Group gap={2} justify="flex-end" wrap="nowrap">
          {webhook.url ? <CopyWebhookUrl name={webhook.name} url={webhook.url} /> : null}
          {webhook.url ? (
            <GuardedAction label={`Send a test message with ${webhook.name}`} onClick={() => onTest(webhook)}>
              <IconSend size={16} />
            </GuardedAction>
          ) : null}
          <GuardedAction label={`Edit ${webhook.name}`} onClick={() => onEdit(webhook)}>
            <IconPencil size={16} />
          </GuardedAction>
          <GuardedAction label={`Delete ${webhook.name}`} color="red" onClick={() => onDelete(webhook)}>
            <IconTrash size={16} />
          </GuardedAction>
        </Group>
      ),
    },
  ];
  return (
    <DataTable<DashboardWebhook>
      withTableBorder
      borderRadius="md"
      verticalSpacing="sm"
      minHeight={view.webhooks.length === 0 ? 240 : undefined}
      records={view.webhooks}
      columns={columns}
      emptyState={
        <EmptyState
          icon={<IconWebhook size={26} />}
          variant="light"
          title="No webhooks yet"
          description="Create a webhook and give its URL to the service that should post here."
          size="sm"
        />
      }
    />
  );
}
