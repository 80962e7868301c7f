"use client";

import { Alert, Button, Chip, Group, Modal, Stack, Text } from "@mantine/core";
import { DateTimePicker } from "@mantine/dates";
import dayjs from "dayjs";
import { useState } from "react";
import { fieldErrorsOf, notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconClock } from "~/components/icons.tsx";
import { TIMEOUT_MAX_MS } from "~/server/members/member.schema.ts";
import { api } from "~/trpc/react.tsx";
import { displayName, isTimedOut, type MemberObject } from "./member-display.ts";
import { TIMEOUT_PRESETS } from "./moderation-options.ts";
import { ReasonInput } from "./reason-input.tsx";
import { useMemberRefresh } from "./use-member-refresh.ts";
import { TimeLeft } from "~/components/time/time.tsx";
import { formatDateTime } from "~/components/time/time-format.ts";

const CUSTOM = "custom";

type Props = { guildId: string; member: MemberObject | null; opened: boolean; onClose: () => void };

export function TimeoutModal({ guildId, member, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={member && isTimedOut(member) ? "Edit timeout" : "Time out member"}>
      {member ? <TimeoutForm key={member.user.id} guildId={guildId} member={member} onClose={onClose} /> : null}
    </Modal>
  );
}

/** When the timeout ends for a choice, or why the choice can't be used. */
function endOf(choice: string, custom: string | null, now: number): { until: Date } | { error: string } {
  const preset = TIMEOUT_PRESETS.find((p) => String(p.seconds) === choice);
  if (preset) return { until: new Date(now + preset.seconds * 1000) };
  if (!custom) return { error: "Pick when the timeout ends." };
  const until = dayjs(custom).toDate();
  if (until.getTime() <= now) return { error: "Pick a time in the future." };
  if (until.getTime() - now > TIMEOUT_MAX_MS) return { error: "A timeout can be at most 28 days long." };
  return { until };
}

function TimeoutForm({ guildId, member, onClose }: { guildId: string; member: MemberObject; onClose: () => void }) {
  const refresh = useMemberRefresh(guildId);
  const name = displayName(member);
  const [choice, setChoice] = useState<string>(String(TIMEOUT_PRESETS[3].seconds));
  const [custom, setCustom] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const modify = api.member.modify.useMutation({
    onSuccess: async (updated) => {
      const until = updated.communication_disabled_until;
      notifySuccess(until ? `${name} is timed out until ${formatDateTime(until)}.` : `${name} can talk again.`, until ? "Member timed out" : "Timeout removed");
      onClose();
      await refresh();
    },
    onError: (failure) => {
      const fieldError = fieldErrorsOf(failure).communication_disabled_until;
      if (fieldError) setError(fieldError);
      notifyFailure("Could not change the timeout", failure);
    },
  });
  const save = (until: Date | null) =>
    modify.mutate({ guildId, userId: member.user.id, body: { communication_disabled_until: until?.toISOString() ?? null }, reason });

  const now = Date.now();
  const end = endOf(choice, custom, now);
  const submit = () => {
    const checked = endOf(choice, custom, Date.now());
    if ("error" in checked) setError(checked.error);
    else save(checked.until);
  };

  return (
    <Stack gap="md">
      {isTimedOut(member) && member.communication_disabled_until ? (
        <Alert color="orange" variant="light" icon={<IconClock size={18} />} title="Currently timed out">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {name} can&apos;t send messages, react or speak for <TimeLeft until={member.communication_disabled_until} ended="a moment" />. A new length
              replaces it.
            </Text>
            <Button
              size="xs"
              variant="light"
              color="orange"
              loading={modify.isPending && modify.variables?.body.communication_disabled_until === null}
              onClick={() => save(null)}
            >
              Remove timeout
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Text size="sm">While timed out, {name} can read but can&apos;t send messages, react or join voice.</Text>
      )}
      <div role="radiogroup" aria-label="Duration">
        <Text size="sm" fw={500} mb={6}>
          Duration
        </Text>
        <Chip.Group
          value={choice}
          onChange={(value) => {
            setChoice(value);
            setError(null);
          }}
        >
          <Group gap={6}>
            {TIMEOUT_PRESETS.map((preset) => (
              <Chip key={preset.seconds} value={String(preset.seconds)} type="radio" size="sm">
                {preset.label}
              </Chip>
            ))}
            <Chip value={CUSTOM} type="radio" size="sm">
              Until…
            </Chip>
          </Group>
        </Chip.Group>
      </div>
      {choice === CUSTOM ? (
        <DateTimePicker
          label="Ends at"
          placeholder="Pick a date and time"
          value={custom}
          onChange={(value) => {
            setCustom(value);
            setError(null);
          }}
          minDate={new Date(now)}
          maxDate={new Date(now + TIMEOUT_MAX_MS)}
          valueFormat="D MMM YYYY, HH:mm"
          clearable
        />
      ) : null}
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : "until" in end ? (
        <Text size="sm" c="dimmed">
          Ends {formatDateTime(end.until.toISOString())}.
        </Text>
      ) : null}
      <ReasonInput value={reason} onChange={(event) => setReason(event.currentTarget.value)} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color="orange" loading={modify.isPending && modify.variables?.body.communication_disabled_until !== null} onClick={submit}>
          {isTimedOut(member) ? "Change timeout" : "Time out"}
        </Button>
      </Group>
    </Stack>
  );
}
