"use client";

import { Alert, Avatar, Badge, Box, Group, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import { IconLock } from "~/components/icons.tsx";
import type { UserObject } from "~/server/users/user.dto.ts";
import { slotText, type SlotUse } from "./expression-values.ts";

/** Who uploaded an emoji or sticker, where the service shows it. */
export function Uploader({ user }: { user: UserObject | undefined }) {
  if (!user) return null;
  const name = user.global_name ?? user.username;
  return (
    <Group gap="xs" wrap="nowrap">
      <Avatar src={user.avatar ? cdnImageUrl("avatars", user.id, user.avatar) : null} name={name} alt="" color="initials" size={24} radius="xl" />
      <Text size="sm" truncate>
        {name}
      </Text>
    </Group>
  );
}

/** How many slots of each kind are used, and why no more fit where a kind is full. */
export function SlotCounts({ label, slots }: { label: string; slots: readonly { kind?: string; slot: SlotUse }[] }) {
  const full = slots.flatMap(({ slot }) => (slot.full ? [slot.full] : []));
  return (
    <Stack gap={4}>
      <Group gap="xs" aria-label={label} role="group">
        {slots.map(({ kind, slot }) => (
          <Badge key={kind ?? "all"} variant="light" color={slot.full ? "orange" : "gray"} radius="sm" tt="none" size="lg" fw={500}>
            {slotText(slot)}
            {kind ? ` ${kind}` : ""}
          </Badge>
        ))}
      </Group>
      {full.map((reason) => (
        <Text key={reason} size="xs" c="orange.8">
          {reason}
        </Text>
      ))}
    </Stack>
  );
}

/** A section's header: the slots on one side, the upload control (or why the person cannot add any) on the other. */
export function ExpressionToolbar({ slots, create, action }: { slots: ReactNode; create: string | null; action: ReactNode }) {
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Box>{slots}</Box>
        {create ? null : action}
      </Group>
      {create ? (
        <Alert color="gray" variant="light" icon={<IconLock size={18} />} title="You can't upload here">
          {create}
        </Alert>
      ) : null}
    </Stack>
  );
}
