"use client";

import { Anchor, Button, Code, EmptyState, SimpleGrid, Stack, Text } from "@mantine/core";
import { modals } from "@mantine/modals";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { BackLink } from "~/components/back-link.tsx";
import { notifyFailure, notifySuccess, type ApiClientError } from "~/components/forms/server-errors.ts";
import { IconTrash, IconUsers } from "~/components/icons.tsx";
import { PageSkeleton } from "~/components/page-skeleton.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader, SectionCard } from "~/components/section-card.tsx";
import { api } from "~/trpc/react.tsx";
import { formatDuration, LOBBY_REFRESH_MS, lobbiesPath, UNKNOWN_LOBBY_CODE, type LobbyView } from "./lobby-format.ts";
import { LobbyMembersTable } from "./lobby-members-table.tsx";
import { LobbyMessages } from "./lobby-messages.tsx";
import { MetadataLines } from "./metadata-pairs.tsx";
import { Time, TimeLeft } from "~/components/time/time.tsx";

function isEnded(error: ApiClientError | null): boolean {
  return error?.data?.domainCode === UNKNOWN_LOBBY_CODE;
}

/** One live lobby: what it is, who is in it, what they said; moderation of all three. */
export function LobbyDetail({ applicationId, lobbyId }: { applicationId: string; lobbyId: string }) {
  const router = useRouter();
  const utils = api.useUtils();
  const view = api.lobby.get.useQuery({ applicationId, lobbyId }, { refetchInterval: LOBBY_REFRESH_MS });
  const remove = api.lobby.delete.useMutation({
    onSuccess: async () => {
      notifySuccess("Its members were removed and its messages deleted.", "Lobby ended");
      router.push(lobbiesPath(applicationId));
      await utils.lobby.list.invalidate({ applicationId });
    },
    onError: (error) => notifyFailure("Could not end the lobby", error),
  });
  const back = <BackLink href={lobbiesPath(applicationId)}>Lobbies</BackLink>;

  // Checked before the data: a lobby that ends while open answers 10031 on its next read.
  if (isEnded(view.error)) {
    return (
      <Stack gap="lg" maw={960} mx="auto">
        {back}
        <EmptyState py={64} variant="light" color="gray" icon={<IconUsers size={28} />}>
          <EmptyState.Title order={1}>This lobby has ended or does not exist</EmptyState.Title>
          <EmptyState.Description>
            Lobbies shut down after their idle timeout, or when the game server deletes them. Its members and messages are gone with it.
          </EmptyState.Description>
          <EmptyState.Actions>
            <Button component={Link} href={lobbiesPath(applicationId)}>
              Back to the live lobbies
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Stack>
    );
  }
  if (view.isError && !view.data) {
    return (
      <Stack gap="lg" maw={960} mx="auto">
        {back}
        <QueryError error={view.error} onRetry={() => void view.refetch()} title="Could not load the lobby" />
      </Stack>
    );
  }
  if (!view.data) return <PageSkeleton blocks={3} />;
  const lobby = view.data;

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: "End lobby",
      children: (
        <Text size="sm">
          End lobby <b>{lobby.id}</b> now? Its {lobby.memberCount === 1 ? "member is" : `${lobby.memberCount} members are`} removed and its messages are
          deleted; game clients hear that it was deleted. This cannot be undone.
        </Text>
      ),
      labels: { confirm: "End lobby", cancel: "Cancel" },
      confirmProps: { color: "red" },
      onConfirm: () => remove.mutate({ applicationId, lobbyId }),
    });

  return (
    <Stack gap="lg" maw={1080} mx="auto">
      {back}
      <PageHeader
        title="Lobby"
        description={
          <>
            <Text span ff="monospace" size="sm">
              {lobby.id}
            </Text>{" "}
            of {lobby.application.name}
          </>
        }
        actions={
          <Button color="red" variant="light" leftSection={<IconTrash size={16} />} loading={remove.isPending} onClick={confirmDelete}>
            End lobby
          </Button>
        }
      />
      <LobbyOverview lobby={lobby} />
      <SectionCard title={`Members (${lobby.memberCount.toLocaleString("en-US")})`} description="Players in the lobby, with what the game gave each.">
        <LobbyMembersTable applicationId={applicationId} lobby={lobby} />
      </SectionCard>
      <SectionCard
        title="Messages"
        description="What members sent in the lobby, newest first. Moderation metadata reaches the players' game clients as a message update."
      >
        <LobbyMessages applicationId={applicationId} lobbyId={lobbyId} />
      </SectionCard>
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" fw={500} tt="uppercase">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

function LobbyOverview({ lobby }: { lobby: LobbyView }) {
  const channel = lobby.linkedChannel;
  return (
    <SectionCard title="Overview">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
        <Fact label="Shuts down">
          <Text size="sm" fw={500} aria-live="off">
            <TimeLeft until={lobby.expiresAt} ended="Shutting down">
              {(left) => `in ${left}`}
            </TimeLeft>
          </Text>
          <Text size="xs" c="dimmed">
            if idle; any change starts the clock again
          </Text>
        </Fact>
        <Fact label="Idle timeout">
          <Text size="sm">{formatDuration(lobby.idleTimeoutSeconds)}</Text>
        </Fact>
        <Fact label="Last activity">
          <Text size="sm">
            <Time value={lobby.lastActivityAt} />
          </Text>
        </Fact>
        <Fact label="Created">
          <Text size="sm">
            <Time value={lobby.createdAt} />
          </Text>
        </Fact>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Fact label="Linked channel">
          {channel ? (
            <Text size="sm">
              {channel.guildId ? (
                <Anchor component={Link} href={`/guilds/${channel.guildId}/channels/${channel.id}/messages`}>
                  #{channel.name}
                </Anchor>
              ) : (
                `#${channel.name}`
              )}{" "}
              in {channel.guildName ?? "an unknown guild"}
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              Not linked. A member with Can link channel links one with <Code>PATCH /lobbies/{"{id}"}/channel-linking</Code>; messages are then copied there.
            </Text>
          )}
        </Fact>
        <Fact label="Metadata">
          {lobby.metadata ? (
            <MetadataLines metadata={lobby.metadata} label="Lobby metadata" />
          ) : (
            <Text size="sm" c="dimmed">
              None
            </Text>
          )}
        </Fact>
      </SimpleGrid>
    </SectionCard>
  );
}
