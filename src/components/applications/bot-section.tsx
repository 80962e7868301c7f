"use client";

import { Button, Code, CopyButton, DataList, Group, Modal, Text, Tooltip, ActionIcon } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useState } from "react";
import { notifyFailure } from "~/components/forms/server-errors.ts";
import { IconCheck, IconCopy, IconKey } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { api } from "~/trpc/react.tsx";
import type { ApplicationDetail } from "./application-types.ts";
import { ResetConfirmation } from "./reset-confirmation.tsx";
import { BotAccessSwitches } from "./bot-access-switches.tsx";
import { BotTokenReveal } from "./bot-token-reveal.tsx";

/** An id to paste elsewhere, with a copy button. */
export function CopyableId({ label, value }: { label: string; value: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Code>{value}</Code>
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? "Copied" : `Copy the ${label}`}>
            <ActionIcon variant="subtle" color={copied ? "teal" : "gray"} size="sm" onClick={copy} aria-label={`Copy the ${label}`}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** The application's bot user and its token: tokens are never shown again, only reset. */
export function BotSection({ application }: { application: ApplicationDetail }) {
  const [opened, { open, close }] = useDisclosure(false);
  const { bot } = application;
  return (
    <SectionCard id="bot" title="Bot" description="The user your application acts as when it calls the API with its bot token.">
      <DataList labelWidth={140}>
        <DataList.Item>
          <DataList.ItemLabel>Username</DataList.ItemLabel>
          <DataList.ItemValue style={{ overflowWrap: "anywhere" }}>{bot.username}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Bot user ID</DataList.ItemLabel>
          <DataList.ItemValue>
            <CopyableId label="bot user ID" value={bot.id} />
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Guilds</DataList.ItemLabel>
          <DataList.ItemValue>{bot.guildCount === 1 ? "In 1 guild" : `In ${bot.guildCount.toLocaleString("en-US")} guilds`}</DataList.ItemValue>
        </DataList.Item>
      </DataList>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed" maw={520}>
          The token was shown once, when it was made. Lost it, or think someone else has it? Reset it for a new one.
        </Text>
        <Button variant="light" color="red" leftSection={<IconKey size={16} />} onClick={open}>
          Reset token
        </Button>
      </Group>
      <ResetTokenModal application={application} opened={opened} onClose={close} />
      <BotAccessSwitches application={application} />
    </SectionCard>
  );
}

function ResetTokenModal({ application, opened, onClose }: { application: ApplicationDetail; opened: boolean; onClose: () => void }) {
  const [token, setToken] = useState<string | null>(null);
  const reset = api.application.resetToken.useMutation({
    onSuccess: ({ botToken }) => setToken(botToken),
    onError: (error) => notifyFailure("Could not reset the token", error),
  });
  // Closing forgets the new token: it exists nowhere else in plain text.
  function close() {
    setToken(null);
    reset.reset();
    onClose();
  }
  return (
    <Modal opened={opened} onClose={close} title={token ? "New bot token" : "Reset the bot token?"} size="lg" closeOnClickOutside={!token}>
      {token ? (
        <BotTokenReveal token={token} onDone={close} />
      ) : (
        <ResetConfirmation
          confirmLabel="Reset token"
          loading={reset.isPending}
          onCancel={close}
          onConfirm={() => reset.mutate({ applicationId: application.id })}
        >
          A new token is made for <b>{application.name}</b> and <b>every earlier token stops working</b> at once: anything still using one is refused until you
          give it the new token.
        </ResetConfirmation>
      )}
    </Modal>
  );
}
