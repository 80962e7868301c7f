"use client";

import { Alert, Button, Code, CopyButton, Group, Stack, Text, TextInput } from "@mantine/core";
import { IconAlertTriangle, IconCheck, IconCopy } from "~/components/icons.tsx";

/**
 * A bot token shown the one time it exists in plain text: only its hash is stored, so once
 * this closes nobody can show it again (a reset makes a new one).
 */
export function BotTokenReveal({ token, onDone }: { token: string; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Store it now: it won't be shown again">
        Copy the token into your bot&apos;s configuration or a secret store before closing this. Guildhall keeps only a hash of it; if it is lost, reset the
        token for a new one.
      </Alert>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label="Bot token"
          value={token}
          readOnly
          flex={1}
          miw={0}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={token} timeout={2500}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? "filled" : "light"}
              color={copied ? "teal" : undefined}
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              onClick={copy}
              miw={112}
            >
              {copied ? "Copied" : "Copy"}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        Bots send it as <Code>Authorization: Bot &lt;token&gt;</Code>. Anyone holding it can act as your bot.
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone}>I have stored it</Button>
      </Group>
    </Stack>
  );
}
