import { Box, Card, Group, Stack, Text, Title } from "@mantine/core";
import { GuildAvatar } from "~/components/guild/guild-avatar.tsx";
import type { WelcomeValues } from "./welcome-values.ts";

type Props = {
  guild: { id: string; name: string; icon: string | null };
  values: WelcomeValues;
  channelName: (id: string) => string | undefined;
};

/** The welcome screen as a member joining through an invite sees it. */
export function WelcomePreview({ guild, values, channelName }: Props) {
  const rows = values.welcome_channels.filter((row) => row.channel_id);
  return (
    <Card withBorder padding="lg" radius="md" aria-label="Welcome screen preview" component="section">
      <Stack gap="md" align="center" ta="center">
        <GuildAvatar guild={guild} size={64} radius="xl" />
        <Title order={3} fz="xl">
          Welcome to {guild.name}!
        </Title>
        <Text size="sm" c={values.description.trim() ? undefined : "dimmed"}>
          {values.description.trim() || "Your description appears here."}
        </Text>
      </Stack>
      {rows.length > 0 ? (
        <Stack gap="xs" mt="lg">
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            Here are some things to do to get started
          </Text>
          {rows.map((row, index) => (
            <Group key={`${row.channel_id}-${index}`} gap="sm" wrap="nowrap" p="sm" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 8 }}>
              <Box fz={22} w={28} ta="center" aria-hidden>
                {row.emoji_name || "#"}
              </Box>
              <Box miw={0}>
                <Text size="sm" fw={600} truncate>
                  {row.description || "Describe what to do here"}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  # {channelName(row.channel_id) ?? "unknown channel"}
                </Text>
              </Box>
            </Group>
          ))}
        </Stack>
      ) : null}
    </Card>
  );
}
