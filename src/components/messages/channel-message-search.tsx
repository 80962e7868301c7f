"use client";

import { Button, Group, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { IconSearch } from "~/components/icons.tsx";
import { SEARCH_CONTENT_MAX } from "~/server/messages/message-search.schema.ts";
import { MessageSearchResults } from "./message-search-results.tsx";

type Props = { guildId: string; channelId: string; onActiveChange: (isActive: boolean) => void };

/**
 * Searches the channel's messages by words through the guild's full-text index, with the
 * user's own access (the service reads only what they may read). While the guild's index is
 * being built the results say how far it got.
 */
export function ChannelMessageSearch({ guildId, channelId, onActiveChange }: Props) {
  const [draft, setDraft] = useState("");
  const [words, setWords] = useState<string | null>(null);
  const run = (text: string | null) => {
    setWords(text);
    onActiveChange(text !== null);
  };

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
      {words === null ? null : (
        <MessageSearchResults
          key={words}
          guildId={guildId}
          request={{ content: words, authorId: null, channelId }}
          showChannel={false}
          emptyDescription={`Nothing in this channel says “${words}”.`}
        />
      )}
    </Stack>
  );
}
