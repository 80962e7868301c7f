"use client";

import { Stack, Text } from "@mantine/core";
import type { ApplicationDetail } from "./application-types.ts";
import { CopyableId } from "./bot-section.tsx";

/** The application's Ed25519 public key, which receivers use to check its signed event webhooks. */
export function PublicKeyField({ application }: { application: ApplicationDetail }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Public key
      </Text>
      <div style={{ overflowWrap: "anywhere" }}>
        <CopyableId label="public key" value={application.verifyKey} />
      </div>
      <Text size="xs" c="dimmed">
        Ed25519, in hex (the application&apos;s verify_key). Check X-Signature-Ed25519 on requests from Guildhall with it.
      </Text>
    </Stack>
  );
}
