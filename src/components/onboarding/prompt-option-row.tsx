"use client";

import { Group, MultiSelect, Paper, SimpleGrid, Stack, Text, TextInput, type ComboboxItem, type ComboboxItemGroup } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import { ListItemControls } from "~/components/forms/list-item-controls.tsx";
import {
  ONBOARDING_EMOJI_NAME_MAX,
  ONBOARDING_OPTION_DESCRIPTION_MAX,
  ONBOARDING_OPTION_TARGETS_MAX,
  ONBOARDING_OPTION_TITLE_MAX,
} from "~/server/guild-config/onboarding.schema.ts";
import type { OnboardingValues } from "./onboarding-values.ts";

export type SelectData = { channels: ComboboxItemGroup<ComboboxItem>[]; roles: { value: string; label: string }[] };

type Props = {
  form: UseFormReturnType<OnboardingValues>;
  promptIndex: number;
  index: number;
  count: number;
  data: SelectData;
  locked: boolean;
};

/** One answer of a question: emoji, title, description, and the channels and roles it adds. */
export function PromptOptionRow({ form, promptIndex, index, count, data, locked }: Props) {
  const path = `prompts.${promptIndex}.options.${index}`;
  const list = `prompts.${promptIndex}.options`;
  const name = form.values.prompts[promptIndex]?.options[index]?.title || `answer ${index + 1}`;
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" fw={600} c="dimmed">
            Answer {index + 1}
          </Text>
          <ListItemControls form={form} list={list} index={index} count={count} label={name} disabled={locked} keep={count === 1} size="sm" />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <TextInput label="Emoji" w={64} maxLength={ONBOARDING_EMOJI_NAME_MAX} disabled={locked} {...form.getInputProps(`${path}.emoji_name`)} />
            <TextInput flex={1} label="Answer" required maxLength={ONBOARDING_OPTION_TITLE_MAX} disabled={locked} {...form.getInputProps(`${path}.title`)} />
          </Group>
          <TextInput label="Description" maxLength={ONBOARDING_OPTION_DESCRIPTION_MAX} disabled={locked} {...form.getInputProps(`${path}.description`)} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <MultiSelect
            label="Channels it adds"
            placeholder="No channels"
            data={data.channels}
            searchable
            hidePickedOptions
            maxValues={ONBOARDING_OPTION_TARGETS_MAX}
            disabled={locked}
            {...form.getInputProps(`${path}.channel_ids`)}
          />
          <MultiSelect
            label="Roles it gives"
            placeholder="No roles"
            data={data.roles}
            searchable
            hidePickedOptions
            maxValues={ONBOARDING_OPTION_TARGETS_MAX}
            disabled={locked}
            {...form.getInputProps(`${path}.role_ids`)}
          />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
