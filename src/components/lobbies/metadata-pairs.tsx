import { Badge, Group, Stack, Text } from "@mantine/core";
import type { LobbyMetadata } from "~/server/lobbies/lobby.schema.ts";

/** Metadata in a table cell: one badge a pair, cut short (the whole pair on hover). */
export function MetadataBadges({ metadata, max = 4 }: { metadata: LobbyMetadata | null; max?: number }) {
  const entries = Object.entries(metadata ?? {});
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Group gap={4} wrap="wrap">
      {entries.slice(0, max).map(([key, value]) => (
        <Badge key={key} size="sm" variant="light" color="gray" tt="none" maw={220} title={`${key}: ${value}`}>
          {key}: {value}
        </Badge>
      ))}
      {entries.length > max ? (
        <Text size="xs" c="dimmed">
          +{entries.length - max} more
        </Text>
      ) : null}
    </Group>
  );
}

/** Metadata in full, a line a pair; long keys and values wrap. */
export function MetadataLines({ metadata, label }: { metadata: LobbyMetadata; label: string }) {
  return (
    <Stack gap={2} component="dl" m={0} aria-label={label}>
      {Object.entries(metadata).map(([key, value]) => (
        <Group key={key} gap={6} wrap="nowrap" align="baseline">
          <Text component="dt" size="xs" fw={600} className="message-text" maw="40%" style={{ flexShrink: 0 }}>
            {key}
          </Text>
          <Text component="dd" size="xs" m={0} miw={0} className="message-text" lineClamp={4} title={value}>
            {value}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
