"use client";

import { Button, Card, Group, Select, Stack, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useMemo, useState } from "react";
import { IconSearch } from "~/components/icons.tsx";
import { displayName } from "~/components/members/member-display.ts";
import { PageHeader } from "~/components/section-card.tsx";
import { sortChannels } from "~/server/channels/channel.dto.ts";
import { SEARCH_CONTENT_MAX } from "~/server/messages/message-search.schema.ts";
import { BackLink } from "~/components/back-link.tsx";
import { api } from "~/trpc/react.tsx";
import { MESSAGE_VIEW_CHANNEL_TYPES } from "./message-types.ts";
import { MessageSearchResults, type MessageSearchRequest } from "./message-search-results.tsx";

/** Members offered at once by the author picker; typing narrows them by name. */
const AUTHOR_CHOICES = 25;

type Option = { value: string; label: string };

/** Picks one member by name, looked up as the user types. */
function AuthorPicker({ guildId, value, onChange }: { guildId: string; value: Option | null; onChange: (option: Option | null) => void }) {
  const [search, setSearch] = useState("");
  const [prefix] = useDebouncedValue(search.trim(), 250);
  // Once a member is picked the box shows their name; looking that up again would narrow nothing.
  const lookup = prefix === value?.label ? "" : prefix;
  const members = api.member.list.useQuery({ guildId, limit: AUTHOR_CHOICES, ...(lookup && { prefix: lookup }) });
  const data = useMemo(() => {
    const options = (members.data?.rows ?? []).map(({ member }) => ({ value: member.user.id, label: displayName(member) }));
    return value && !options.some((option) => option.value === value.value) ? [value, ...options] : options;
  }, [members.data, value]);
  return (
    <Select
      label="From"
      placeholder="Anyone"
      searchable
      clearable
      data={data}
      value={value?.value ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id, option) => onChange(id ? option : null)}
      nothingFoundMessage={members.isFetching ? "Looking…" : "No member by that name"}
      flex="1 1 180px"
    />
  );
}

/**
 * Searches every channel of the guild the user can read (or one of them, or one author's
 * messages) by words; each hit links to its channel's Messages view.
 */
export function GuildMessageSearch({ guildId }: { guildId: string }) {
  const channels = api.channel.list.useQuery({ guildId });
  const [words, setWords] = useState("");
  const [author, setAuthor] = useState<Option | null>(null);
  const [channelId, setChannelId] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<{ request: MessageSearchRequest; authorName: string | null } | null>(null);
  const request = submitted?.request;
  const channelOptions = useMemo(
    () =>
      sortChannels((channels.data ?? []).filter((channel) => MESSAGE_VIEW_CHANNEL_TYPES.has(channel.type))).map((c) => ({ value: c.id, label: `#${c.name}` })),
    [channels.data],
  );
  const where = request?.channelId
    ? (channelOptions.find((option) => option.value === request.channelId)?.label ?? "that channel")
    : "the channels you can read";

  return (
    <Stack gap="lg" maw={960} mx="auto">
      <BackLink href={`/guilds/${guildId}/channels`}>Channels</BackLink>
      <PageHeader title="Search messages" description="Messages in every channel you can read, newest first." />
      <Card withBorder>
        <form
          role="search"
          aria-label="Search messages"
          onSubmit={(event) => {
            event.preventDefault();
            const content = words.trim();
            if (content) setSubmitted({ request: { content, authorId: author?.value ?? null, channelId }, authorName: author?.label ?? null });
          }}
        >
          <Stack gap="sm">
            <TextInput
              label="Words"
              placeholder="What the message says"
              leftSection={<IconSearch size={16} />}
              maxLength={SEARCH_CONTENT_MAX}
              value={words}
              onChange={(event) => setWords(event.currentTarget.value)}
              data-autofocus
            />
            <Group gap="sm" align="flex-end" wrap="wrap">
              <AuthorPicker guildId={guildId} value={author} onChange={setAuthor} />
              <Select
                label="In"
                placeholder="Any channel"
                searchable
                clearable
                data={channelOptions}
                value={channelId}
                onChange={setChannelId}
                nothingFoundMessage="No channel by that name"
                flex="1 1 180px"
              />
              <Button type="submit" disabled={!words.trim()} leftSection={<IconSearch size={16} />}>
                Search
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      {request ? (
        <MessageSearchResults
          key={JSON.stringify(request)}
          guildId={guildId}
          request={request}
          showChannel
          emptyDescription={`Nothing in ${where}${submitted?.authorName ? ` from ${submitted.authorName}` : ""} says “${request.content}”.`}
        />
      ) : null}
    </Stack>
  );
}
