"use client";

import { Badge, Button, Group, Select, Text } from "@mantine/core";
import { useState } from "react";
import { IconLock } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { Time } from "~/components/time/time.tsx";
import { formatTimeLeft } from "~/components/time/time-format.ts";
import { PAUSE_DURATIONS } from "./countdown.ts";

type Props = {
  id: string;
  title: string;
  description: string;
  /** ISO time the pause ends, or null. */
  until: string | null;
  /** Null until the page has mounted: the server's clock is not the reader's. */
  now: number | null;
  lockReason: string | null;
  pending: boolean;
  onPause: (until: string) => void;
  onResume: () => void;
};

/** One safety action (invites or DMs): paused with the time left counting down, or a length to pause for. */
export function IncidentActionCard({ id, title, description, until, now, lockReason, pending, onPause, onResume }: Props) {
  const [minutes, setMinutes] = useState<string>("60");
  const timeLeft = until && now !== null ? formatTimeLeft(until, now) : null;
  const paused = until !== null && (now === null || timeLeft !== null);
  const locked = lockReason !== null;
  return (
    <SectionCard id={id} title={title} description={description}>
      {paused ? (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <div>
            <Group gap="xs">
              <Badge color="orange" variant="light">
                Paused
              </Badge>
              <Text fw={600} ff="monospace" aria-live="off" data-testid={`${id}-time-left`}>
                {timeLeft ? `${timeLeft} left` : "…"}
              </Text>
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              Until <Time value={until} exact />
            </Text>
          </div>
          <Button variant="default" onClick={onResume} loading={pending} disabled={locked}>
            Resume now
          </Button>
        </Group>
      ) : (
        <Group align="flex-end" wrap="wrap" gap="sm">
          <Select
            label="Pause for"
            data={PAUSE_DURATIONS}
            value={minutes}
            onChange={(value) => setMinutes(value ?? "60")}
            allowDeselect={false}
            disabled={locked}
            w={180}
          />
          <Button color="orange" onClick={() => onPause(new Date(Date.now() + Number(minutes) * 60_000).toISOString())} loading={pending} disabled={locked}>
            Pause
          </Button>
          <Badge color="gray" variant="light" mb={8}>
            Not paused
          </Badge>
        </Group>
      )}
      {lockReason ? (
        <Text size="xs" c="orange.8" fw={500}>
          <IconLock size={11} style={{ verticalAlign: "-1px" }} /> {lockReason}
        </Text>
      ) : null}
    </SectionCard>
  );
}
