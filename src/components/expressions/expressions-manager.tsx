"use client";

import { Stack, Tabs } from "@mantine/core";
import { IconMoodSmile, IconSticker } from "~/components/icons.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { EmojiSection } from "./emoji-section.tsx";
import { StickerSection } from "./sticker-section.tsx";

/** The guild's custom emojis and stickers, a tab each. */
export function ExpressionsManager({ guildId }: { guildId: string }) {
  return (
    <Stack gap="lg" maw={1080} mx="auto">
      <PageHeader title="Emoji & Stickers" description="Custom emojis and stickers members can use in this guild. The guild's boost tier sets how many fit." />
      <Tabs defaultValue="emojis" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="emojis" leftSection={<IconMoodSmile size={16} />}>
            Emojis
          </Tabs.Tab>
          <Tabs.Tab value="stickers" leftSection={<IconSticker size={16} />}>
            Stickers
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="emojis">
          <EmojiSection guildId={guildId} />
        </Tabs.Panel>
        <Tabs.Panel value="stickers">
          <StickerSection guildId={guildId} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
