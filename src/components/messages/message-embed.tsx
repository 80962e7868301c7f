"use client";

import { Anchor, Avatar, Box, Group, Image, SimpleGrid, Stack, Text } from "@mantine/core";
import { MessageText } from "./message-content.tsx";
import { cssColor, type DashboardEmbed, type MentionNames } from "./message-types.ts";
import { formatDateTime } from "~/components/time/time-format.ts";

/** Inline fields share a line three at a time, as the platform lays them out; others take a whole line. */
function Fields({ fields, names }: { fields: NonNullable<DashboardEmbed["fields"]>; names: MentionNames }) {
  const rows: (typeof fields)[] = [];
  for (const field of fields) {
    const row = rows.at(-1);
    if (field.inline && row && row.length < 3 && row.every((f) => f.inline)) row.push(field);
    else rows.push([field]);
  }
  return (
    <Stack gap={6}>
      {rows.map((row, i) => (
        <SimpleGrid key={i} cols={{ base: 1, xs: row.length }} spacing="sm">
          {row.map((field, j) => (
            <Box key={j} miw={0}>
              <Text size="xs" fw={700}>
                {field.name}
              </Text>
              <MessageText text={field.value} names={names} size="xs" />
            </Box>
          ))}
        </SimpleGrid>
      ))}
    </Stack>
  );
}

/** One rich embed: colour bar, author, title (linked), description, fields, thumbnail, image, footer and time. */
export function MessageEmbed({ embed, names }: { embed: DashboardEmbed; names: MentionNames }) {
  const footer = [embed.footer?.text, embed.timestamp ? formatDateTime(embed.timestamp) : null].filter(Boolean).join(" • ");
  return (
    <Box className="message-embed" style={{ borderLeftColor: cssColor(embed.color) ?? undefined }} data-testid="message-embed">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Stack gap={6} miw={0} flex={1}>
          {embed.author ? (
            <Group gap={6} wrap="nowrap">
              {embed.author.icon_url ? <Avatar src={embed.author.icon_url} size={20} alt="" /> : null}
              {embed.author.url ? (
                <Anchor href={embed.author.url} target="_blank" rel="noopener noreferrer nofollow" size="xs" fw={600} c="inherit">
                  {embed.author.name}
                </Anchor>
              ) : (
                <Text size="xs" fw={600}>
                  {embed.author.name}
                </Text>
              )}
            </Group>
          ) : null}
          {embed.title ? (
            embed.url ? (
              <Anchor href={embed.url} target="_blank" rel="noopener noreferrer nofollow" size="sm" fw={700}>
                {embed.title}
              </Anchor>
            ) : (
              <Text size="sm" fw={700}>
                {embed.title}
              </Text>
            )
          ) : null}
          {embed.description ? <MessageText text={embed.description} names={names} /> : null}
          {embed.fields?.length ? <Fields fields={embed.fields} names={names} /> : null}
        </Stack>
        {embed.thumbnail ? <Image src={embed.thumbnail.url} alt="" w={72} h={72} fit="cover" radius="sm" /> : null}
      </Group>
      {embed.image ? <Image src={embed.image.url} alt="" mt="sm" maw={400} mah={300} fit="contain" radius="sm" /> : null}
      {footer || embed.footer?.icon_url ? (
        <Group gap={6} mt="sm" wrap="nowrap">
          {embed.footer?.icon_url ? <Avatar src={embed.footer.icon_url} size={16} alt="" /> : null}
          <Text size="xs" c="dimmed">
            {footer}
          </Text>
        </Group>
      ) : null}
    </Box>
  );
}
