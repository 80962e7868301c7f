"use client";

import { Button, Group, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { useState } from "react";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { GuardedAction } from "~/components/guarded-action.tsx";
import { IconPencil } from "~/components/icons.tsx";
import { VOICE_STATUS_MAX } from "~/server/channels/voice-status.schema.ts";
import { api, type RouterOutputs } from "~/trpc/react.tsx";

export type VoiceStatusRow = RouterOutputs["voiceStatus"]["list"][number];

const BLOCK_REASONS: Record<NonNullable<VoiceStatusRow["blockedBy"]>, string> = {
  SetVoiceChannelStatus: "Needs Set Voice Channel Status",
  ManageChannels: "Needs Manage Channels when you are not in this voice channel",
};

/** Characters as the server counts them (code points), not UTF-16 units. */
const lengthOf = (text: string) => [...text].length;

/** A voice channel's status line, edited in place (at most 500 characters; empty clears it). */
export function VoiceStatusLine({ guildId, channelName, row }: { guildId: string; channelName: string; row: VoiceStatusRow }) {
  const [draft, setDraft] = useState<string | null>(null);
  const utils = api.useUtils();
  const set = api.voiceStatus.set.useMutation({
    onSuccess: async (_, { body }) => {
      notifySuccess(body.status ? `${channelName} now shows “${body.status}”.` : `${channelName} has no status now.`, "Voice status saved");
      setDraft(null);
      await utils.voiceStatus.list.invalidate({ guildId });
    },
    onError: (error) => notifyFailure("Could not set the voice status", error),
  });
  const blockedReason = row.blockedBy ? BLOCK_REASONS[row.blockedBy] : null;

  if (draft === null) {
    return (
      <Group gap={4} wrap="nowrap" miw={0}>
        <Text size="xs" c="dimmed" truncate>
          <VisuallyHidden>Status: </VisuallyHidden>
          {row.status ?? "No status"}
        </Text>
        <GuardedAction label={`Set status of ${channelName}`} size="sm" blockedReason={blockedReason} onClick={() => setDraft(row.status ?? "")}>
          <IconPencil size={14} />
        </GuardedAction>
      </Group>
    );
  }

  const length = lengthOf(draft);
  const tooLong = length > VOICE_STATUS_MAX;
  const save = (status: string) => set.mutate({ channelId: row.channelId, body: { status: status.trim() === "" ? null : status } });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!tooLong) save(draft);
      }}
    >
      <Group gap="xs" align="flex-start" mt={4} wrap="wrap">
        <TextInput
          label="Voice status"
          size="xs"
          flex={1}
          miw={200}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          description={`${length}/${VOICE_STATUS_MAX}`}
          error={tooLong ? `At most ${VOICE_STATUS_MAX} characters` : null}
          data-autofocus
          autoFocus
        />
        <Group gap={4} mt={20} wrap="nowrap">
          <Button size="xs" type="submit" loading={set.isPending} disabled={tooLong}>
            Save
          </Button>
          <Button size="xs" variant="default" disabled={set.isPending || row.status === null} onClick={() => save("")}>
            Clear
          </Button>
          <Button size="xs" variant="subtle" color="gray" onClick={() => setDraft(null)}>
            Cancel
          </Button>
        </Group>
      </Group>
    </form>
  );
}
