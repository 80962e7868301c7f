"use client";

import { Alert, Button, Card, EmptyState, Group, Loader, Pagination, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { IconClock, IconSearch } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { SEARCH_CONTENT_MAX, SEARCH_LIMIT_MAX, SEARCH_OFFSET_MAX } from "~/server/messages/message-search.schema.ts";
import type { SearchHitObject } from "~/server/messages/message-search.service.ts";
import { api } from "~/trpc/react.tsx";
import { MessageItem } from "./message-item.tsx";
import type { DashboardMessage, MentionNames } from "./message-types.ts";

/** The last page a search can reach: the platform's offset stops at SEARCH_OFFSET_MAX. */
const MAX_PAGE = SEARCH_OFFSET_MAX / SEARCH_LIMIT_MAX + 1;

/** A hit as the message list draws it; search results are for reading, so they carry no actions. */
function asDashboardMessage(hit: SearchHitObject): DashboardMessage {
  return { ...hit, canDelete: false, canPublish: false, avatarUrl: null, thread: null };
}

type Props = { guildId: string; channelId: string; names: MentionNames; onActiveChange: (isActive: boolean) => void };

/**
 * Searches the channel's messages by words through the guild's full-text index, with the
 * user's own access (the service reads only what they may read). While the guild's index is
 * being built the service answers how far it got, shown here instead of results.
 */
export function ChannelMessageSearch({ guildId, channelId, names, onActiveChange }: Props) {
  const [draft, setDraft] = useState("");
  const [words, setWords] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const search = api.message.search.useQuery(
    { guildId, query: { content: words ?? "", channel_id: [channelId], limit: SEARCH_LIMIT_MAX, offset: (page - 1) * SEARCH_LIMIT_MAX } },
    { enabled: words !== null },
  );
  const run = (text: string | null) => {
    setWords(text);
    setPage(1);
    onActiveChange(text !== null);
  };

  const answer = search.data;
  const results = answer && !("code" in answer) ? answer : null;
  const pages = results ? Math.min(MAX_PAGE, Math.ceil(results.total_results / SEARCH_LIMIT_MAX)) : 0;

  return (
    <Stack gap="sm">
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const text = draft.trim();
          if (text) run(text);
        }}
      >
        <Group gap="xs">
          <TextInput
            flex="1 1 220px"
            aria-label="Search this channel's messages"
            placeholder="Search this channel's messages"
            leftSection={<IconSearch size={16} />}
            maxLength={SEARCH_CONTENT_MAX}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
          />
          <Button type="submit" disabled={!draft.trim()}>
            Search
          </Button>
          {words !== null ? (
            <Button
              variant="default"
              onClick={() => {
                setDraft("");
                run(null);
              }}
            >
              Clear
            </Button>
          ) : null}
        </Group>
      </form>
      {words === null ? null : search.isError ? (
        <QueryError error={search.error} onRetry={() => void search.refetch()} title="Could not search the messages" />
      ) : !answer ? (
        <Group justify="center" p="md">
          <Loader size="sm" aria-label="Searching" />
        </Group>
      ) : "code" in answer ? (
        <Alert color="yellow" variant="light" icon={<IconClock size={18} />} title="Search is getting ready">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">This guild&apos;s messages are still being indexed ({answer.documents_indexed} so far). Try again in a moment.</Text>
            <Button size="xs" variant="default" loading={search.isFetching} onClick={() => void search.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : results!.total_results === 0 ? (
        <Card withBorder>
          <EmptyState
            icon={<IconSearch size={26} />}
            variant="light"
            size="sm"
            title="No messages match"
            description={`Nothing in this channel says “${words}”.`}
          />
        </Card>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {results!.total_results === 1 ? "1 message matches" : `${results!.total_results} messages match`} “{words}”
          </Text>
          <Card withBorder padding={0} role="feed" aria-label="Search results" aria-busy={search.isFetching}>
            {results!.messages.map(([hit]) => (
              <MessageItem key={hit!.id} guildId={guildId} message={asDashboardMessage(hit!)} names={names} />
            ))}
          </Card>
          {pages > 1 ? <Pagination value={page} onChange={setPage} total={pages} size="sm" aria-label="Result pages" /> : null}
        </Stack>
      )}
    </Stack>
  );
}
