"use client";

import { Alert, Anchor, Button, Card, EmptyState, Group, Loader, Pagination, Stack, Text } from "@mantine/core";
import Link from "next/link";
import { useMemo, useState } from "react";
import { IconClock, IconHash, IconSearch, IconThread } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { api } from "~/trpc/react.tsx";
import { DeleteMessageModal } from "./delete-message-modal.tsx";
import { MessageItem } from "./message-item.tsx";
import { channelMessagesPath, mentionNamesOf, type DashboardSearchHit } from "./message-types.ts";

/** What the user searched: the words, and optionally one author and one channel. */
export type MessageSearchRequest = { content: string; authorId: string | null; channelId: string | null };

/** "in #ops" (or the thread's name) linking to that channel's Messages view. */
function HitChannel({ guildId, hit }: { guildId: string; hit: DashboardSearchHit }) {
  const Icon = hit.channel.isThread ? IconThread : IconHash;
  return (
    <Anchor component={Link} href={channelMessagesPath(guildId, hit.channel.id)} size="xs" c="dimmed" px="md" pt="sm" display="block">
      <Group gap={4} component="span">
        <Icon size={13} />
        {hit.channel.name}
      </Group>
    </Anchor>
  );
}

type Props = {
  guildId: string;
  request: MessageSearchRequest;
  /** Guild-wide searches show each hit's channel; a channel's own search does not need to. */
  showChannel: boolean;
  /** The empty state's words, e.g. "Nothing in this channel says “x”." */
  emptyDescription: string;
};

/**
 * One search's results a page at a time, as the dashboard search service answers them: the
 * hits drawn as readers see messages (with delete for those allowed), the "index is being
 * built" state, an empty state and errors. Remount (key) it for a new search to start at page 1.
 */
export function MessageSearchResults({ guildId, request, showChannel, emptyDescription }: Props) {
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<DashboardSearchHit | null>(null);
  const utils = api.useUtils();
  const search = api.message.searchPage.useQuery({
    guildId,
    query: {
      content: request.content,
      ...(request.authorId && { author_id: [request.authorId] }),
      ...(request.channelId && { channel_id: [request.channelId] }),
    },
    page,
  });
  const answer = search.data;
  const results = answer?.state === "results" ? answer : null;
  const names = useMemo(() => (results ? mentionNamesOf(results) : null), [results]);

  if (search.isError) return <QueryError error={search.error} onRetry={() => void search.refetch()} title="Could not search the messages" />;
  if (!answer) {
    return (
      <Group justify="center" p="md">
        <Loader size="sm" aria-label="Searching" />
      </Group>
    );
  }
  if (answer.state === "indexing") {
    return (
      <Alert color="yellow" variant="light" icon={<IconClock size={18} />} title="Search is getting ready">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            This guild&apos;s messages are still being indexed: {answer.documentsIndexed} {answer.documentsIndexed === 1 ? "message" : "messages"} so far. Try
            again in a moment.
          </Text>
          <Button size="xs" variant="default" loading={search.isFetching} onClick={() => void search.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (answer.total === 0) {
    return (
      <Card withBorder>
        <EmptyState icon={<IconSearch size={26} />} variant="light" size="sm" title="No messages match" description={emptyDescription} />
      </Card>
    );
  }
  const { pages } = answer;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {answer.total === 1 ? "1 message matches" : `${answer.total} messages match`} “{request.content}”{pages > 1 ? ` · page ${page} of ${pages}` : ""}
      </Text>
      <Card withBorder padding={0} role="feed" aria-label="Search results" aria-busy={search.isFetching}>
        {answer.hits.map((hit) => (
          <div key={hit.id} className="search-hit">
            {showChannel ? <HitChannel guildId={guildId} hit={hit} /> : null}
            <MessageItem
              guildId={guildId}
              message={hit}
              names={names!}
              deleteBlocked={hit.canDelete ? null : "Needs Manage Messages in this channel"}
              onDelete={() => setDeleting(hit)}
            />
          </div>
        ))}
      </Card>
      {pages > 1 ? (
        <Group justify="center">
          <Pagination value={page} onChange={setPage} total={pages} size="sm" siblings={1} boundaries={1} getControlProps={controlLabel} />
        </Group>
      ) : null}
      <DeleteMessageModal
        channelId={deleting?.channel.id ?? ""}
        message={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => void utils.message.searchPage.invalidate({ guildId })}
      />
    </Stack>
  );
}

/** Names the previous/next controls for screen readers: newer and older results. */
function controlLabel(control: "first" | "previous" | "last" | "next") {
  return { "aria-label": control === "previous" ? "Newer results" : control === "next" ? "Older results" : `${control} page` };
}
