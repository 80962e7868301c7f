"use client";

import { Badge, Checkbox, Group, SimpleGrid, Stack, Text, Tooltip } from "@mantine/core";
import { ChannelType } from "discord-api-types/v10";
import { IconHash, IconMessages, IconSpeakerphone, IconVolume } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import type { ChannelGroup } from "./onboarding-values.ts";

type Props = {
  groups: readonly ChannelGroup[];
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string;
  locked: boolean;
};

function ChannelIcon({ type }: { type: number }) {
  if (type === ChannelType.GuildVoice || type === ChannelType.GuildStageVoice) return <IconVolume size={15} />;
  if (type === ChannelType.GuildAnnouncement) return <IconSpeakerphone size={15} />;
  if (type === ChannelType.GuildForum || type === ChannelType.GuildMedia) return <IconMessages size={15} />;
  return <IconHash size={15} />;
}

/** The channels every new member starts in, grouped by category; channels @everyone cannot chat in are marked. */
export function DefaultChannelsPicker({ groups, value, onChange, error, locked }: Props) {
  const known = new Set(groups.flatMap((group) => group.channels.map((channel) => channel.id)));
  // Default channels the user cannot see stay selected; they are only not listed.
  const hidden = value.filter((id) => !known.has(id)).length;

  return (
    <SectionCard
      title="Default channels"
      id="onboarding-defaults"
      description={`Every new member is added to these. ${value.length} selected${hidden ? `, ${hidden} of them hidden from you` : ""}.`}
    >
      <Checkbox.Group value={value} onChange={onChange} error={error} aria-label="Default channels">
        <Stack gap="md">
          {groups.map((group) => (
            <Stack key={group.category?.id ?? "none"} gap={6}>
              <Text size="xs" fw={700} tt="uppercase" c="dimmed">
                {group.category?.name ?? "No category"}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing={6} verticalSpacing={6}>
                {group.channels.map((channel) => (
                  <Checkbox.Card key={channel.id} value={channel.id} disabled={locked} radius="sm" p={8} aria-label={channel.name}>
                    <Group gap={8} wrap="nowrap">
                      <Checkbox.Indicator disabled={locked} size="sm" />
                      <ChannelIcon type={channel.type} />
                      <Text size="sm" truncate flex={1}>
                        {channel.name}
                      </Text>
                      {channel.everyone_can_chat ? null : (
                        <Tooltip label="@everyone cannot view this channel or send messages in it, so it does not count toward the 5." multiline maw={260}>
                          <Badge size="xs" variant="light" color="gray" tt="none">
                            No chat for everyone
                          </Badge>
                        </Tooltip>
                      )}
                    </Group>
                  </Checkbox.Card>
                ))}
              </SimpleGrid>
            </Stack>
          ))}
        </Stack>
      </Checkbox.Group>
      {groups.length === 0 ? (
        <Text size="sm" c="dimmed">
          This guild has no channels you can see yet.
        </Text>
      ) : null}
    </SectionCard>
  );
}
