"use client";

import { Alert, Button, Code, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { notifyFailure } from "~/components/forms/server-errors.ts";
import { IconAlertTriangle } from "~/components/icons.tsx";
import { api } from "~/trpc/react.tsx";
import type { ApplicationDetail } from "./application-types.ts";
import { ResetConfirmation } from "./reset-confirmation.tsx";
import { SecretField } from "./secret-field.tsx";

/** Asks first, then shows the new client secret once: only its digest is stored. */
export function ClientSecretModal({ application, opened, onClose }: { application: ApplicationDetail; opened: boolean; onClose: () => void }) {
  const utils = api.useUtils();
  const [secret, setSecret] = useState<string | null>(null);
  const reset = api.application.resetClientSecret.useMutation({
    onSuccess: async ({ clientSecret }) => {
      setSecret(clientSecret);
      await utils.application.get.invalidate({ applicationId: application.id });
    },
    onError: (error) => notifyFailure("Could not reset the client secret", error),
  });
  // Closing forgets the secret: it exists nowhere else in plain text.
  function close() {
    setSecret(null);
    reset.reset();
    onClose();
  }
  return (
    <Modal opened={opened} onClose={close} title={secret ? "New client secret" : "Reset the client secret?"} size="lg" closeOnClickOutside={!secret}>
      {secret ? (
        <Stack gap="md">
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Store it now: it won't be shown again">
            Copy the secret into your server&apos;s configuration before closing this. Guildhall keeps only a digest of it; if it is lost, reset it for a new
            one.
          </Alert>
          <SecretField label="Client secret" value={secret} />
          <Text size="sm" c="dimmed">
            Your server sends it to <Code>POST /api/oauth2/token</Code> with the client ID, in HTTP Basic authentication or the form&apos;s{" "}
            <Code>client_secret</Code>. Never put it in a game or a web page.
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>I have stored it</Button>
          </Group>
        </Stack>
      ) : (
        <ResetConfirmation
          confirmLabel="Reset secret"
          loading={reset.isPending}
          onCancel={close}
          onConfirm={() => reset.mutate({ applicationId: application.id })}
        >
          A new client secret is made for <b>{application.name}</b> and <b>the current one stops working</b> at once: token requests made with it are refused
          until your server has the new one. Tokens already issued keep working.
        </ResetConfirmation>
      )}
    </Modal>
  );
}
