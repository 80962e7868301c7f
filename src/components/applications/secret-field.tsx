"use client";

import { Button, CopyButton, Group, TextInput } from "@mantine/core";
import { IconCheck, IconCopy } from "~/components/icons.tsx";

/** A secret shown the one time it exists in plain text, read-only, with a copy button. */
export function SecretField({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        label={label}
        value={value}
        readOnly
        flex={1}
        miw={0}
        styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        onFocus={(event) => event.currentTarget.select()}
      />
      <CopyButton value={value} timeout={2500}>
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
  );
}
