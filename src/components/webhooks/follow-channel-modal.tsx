"use client";

import { Alert, Button, Group, Modal, Select, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { fieldErrorsOf, notifySuccess } from "~/components/forms/server-errors.ts";
import { ReasonInput } from "~/components/members/reason-input.tsx";
import { api } from "~/trpc/react.tsx";

type Props = { channel: { id: string; name: string }; opened: boolean; onClose: () => void };

/** Follow this announcement channel into a text or announcement channel of one of the user's guilds. */
export function FollowChannelModal({ channel, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Follow #${channel.name}`}>
      {opened ? <FollowForm channel={channel} onClose={onClose} /> : null}
    </Modal>
  );
}

function FollowForm({ channel, onClose }: { channel: { id: string; name: string }; onClose: () => void }) {
  const utils = api.useUtils();
  const targets = api.webhook.followTargets.useQuery({ channelId: channel.id });
  const [targetId, setTargetId] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const feedback = useSaveFeedback(null, "Could not follow the channel");
  const follow = api.webhook.follow.useMutation({
    onSuccess: async () => {
      const target = targets.data?.guilds.flatMap((guild) => guild.channels).find((c) => c.id === targetId);
      notifySuccess(`Messages published in #${channel.name} now also appear in #${target?.name ?? "the channel"}.`, "Channel followed");
      onClose();
      if (targetId) await utils.webhook.channel.invalidate({ channelId: targetId });
    },
    onError: (error) => feedback.onServerError(error),
  });
  const serverErrors = fieldErrorsOf(follow.error);
  const data = targets.data;
  const options = (data?.guilds ?? []).map((guild) => ({ group: guild.name, items: guild.channels.map((c) => ({ value: c.id, label: `#${c.name}` })) }));

  return (
    <form
      ref={feedback.ref}
      onSubmit={(event) => {
        event.preventDefault();
        if (targetId) follow.mutate({ channelId: channel.id, body: { webhook_channel_id: targetId }, reason: reason || undefined });
      }}
    >
      <Stack gap="md">
        <Text size="sm">
          Each message published in #{channel.name} is posted again in the channel you choose, by a webhook named after this guild and channel.
        </Text>
        {data?.blockedReason ? (
          <Alert color="gray" variant="light" title="Nowhere to follow it into">
            {data.blockedReason}.
          </Alert>
        ) : (
          <Select
            label="Post into"
            description="Text and announcement channels of your guilds where you manage webhooks."
            placeholder={targets.isLoading ? "Loading channels" : "Choose a channel"}
            data={options}
            value={targetId}
            onChange={setTargetId}
            searchable
            required
            disabled={!data}
            error={serverErrors.webhook_channel_id}
            data-autofocus
          />
        )}
        <ReasonInput value={reason} onChange={(event) => setReason(event.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={follow.isPending} disabled={!targetId}>
            Follow
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
