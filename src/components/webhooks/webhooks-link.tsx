"use client";

import { ActionIcon, Tooltip } from "@mantine/core";
import Link from "next/link";
import { IconWebhook } from "~/components/icons.tsx";
import { channelWebhooksPath } from "./webhook-types.ts";

/** A channel row's way to its webhooks; the page itself says when the user may not manage them. */
export function WebhooksLink({ guildId, channel }: { guildId: string; channel: { id: string; name: string } }) {
  const label = `Webhooks of ${channel.name}`;
  return (
    <Tooltip label={label}>
      <ActionIcon component={Link} href={channelWebhooksPath(guildId, channel.id)} variant="subtle" color="gray" aria-label={label}>
        <IconWebhook size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
