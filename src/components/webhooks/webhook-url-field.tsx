"use client";

import { ActionIcon, CopyButton, Group, PasswordInput, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "~/components/icons.tsx";

/** Copies a webhook's URL; the URL is the secret, so it says so rather than showing it. */
export function CopyWebhookUrl({ name, url }: { name: string; url: string }) {
  return (
    <CopyButton value={url} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? "Copied" : `Copy the URL of ${name}`}>
          <ActionIcon
            variant="subtle"
            color={copied ? "teal" : "gray"}
            onClick={copy}
            aria-label={copied ? `URL of ${name} copied` : `Copy the URL of ${name}`}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** The URL to give a service, hidden until asked: anyone holding it can post as the webhook. */
export function WebhookUrlField({ name, url }: { name: string; url: string }) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <PasswordInput
        label="Webhook URL"
        description="Anyone with this URL can post as the webhook. Keep it secret."
        value={url}
        readOnly
        flex={1}
        visibilityToggleButtonProps={{ "aria-label": "Show or hide the URL" }}
      />
      <CopyWebhookUrl name={name} url={url} />
    </Group>
  );
}
