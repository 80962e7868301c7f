"use client";

import { Alert, Button, Code, Group, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "~/components/icons.tsx";
import { SecretField } from "./secret-field.tsx";

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
      <SecretField label="Bot token" value={token} />
      <Text size="sm" c="dimmed">
        Bots send it as <Code>Authorization: Bot &lt;token&gt;</Code>. Anyone holding it can act as your bot.
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone}>I have stored it</Button>
      </Group>
    </Stack>
  );
}
