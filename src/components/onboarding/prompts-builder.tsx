"use client";

import { Badge, Button, Group, Paper, SegmentedControl, Stack, Switch, Text, TextInput } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import { ListItemControls } from "~/components/forms/list-item-controls.tsx";
import { IconPlus } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { ONBOARDING_OPTIONS_MAX, ONBOARDING_PROMPT_TITLE_MAX, ONBOARDING_PROMPTS_MAX } from "~/server/guild-config/onboarding.schema.ts";
import { newOption, newPrompt, PROMPT_TYPE_CHOICES, type OnboardingValues } from "./onboarding-values.ts";
import { PromptOptionRow, type SelectData } from "./prompt-option-row.tsx";

type Props = { form: UseFormReturnType<OnboardingValues>; data: SelectData; locked: boolean };

/** The questions new members answer, each with answers that add channels and roles. */
export function PromptsBuilder({ form, data, locked }: Props) {
  const prompts = form.values.prompts;
  const listError = form.errors.prompts;
  return (
    <SectionCard
      title="Questions"
      id="onboarding-questions"
      description={`Up to ${ONBOARDING_PROMPTS_MAX}. Pre-join questions are asked while joining; the others appear in Channels & Roles.`}
    >
      {prompts.length === 0 ? (
        <Text size="sm" c="dimmed">
          No questions yet. Questions let members pick the channels and roles they want.
        </Text>
      ) : null}
      {prompts.map((prompt, p) => {
        const name = prompt.title || `question ${p + 1}`;
        const optionsError = form.errors[`prompts.${p}.options`];
        return (
          <Paper key={prompt.key} withBorder p="md" radius="md" component="fieldset" aria-label={`Question ${p + 1}`} style={{ margin: 0 }}>
            <Stack gap="sm">
              <Group justify="space-between" wrap="nowrap">
                <Group gap="xs">
                  <Text fw={700} size="sm">
                    Question {p + 1}
                  </Text>
                  {prompt.in_onboarding ? (
                    <Badge size="xs" variant="light">
                      Pre-join
                    </Badge>
                  ) : null}
                  {prompt.required ? (
                    <Badge size="xs" variant="light" color="orange">
                      Required
                    </Badge>
                  ) : null}
                </Group>
                <ListItemControls form={form} list="prompts" index={p} count={prompts.length} label={name} disabled={locked} />
              </Group>
              <TextInput label="Question" required maxLength={ONBOARDING_PROMPT_TITLE_MAX} disabled={locked} {...form.getInputProps(`prompts.${p}.title`)} />
              <Group gap="lg" align="center">
                <SegmentedControl
                  size="xs"
                  data={PROMPT_TYPE_CHOICES}
                  disabled={locked}
                  aria-label="Question type"
                  {...form.getInputProps(`prompts.${p}.type`)}
                />
                <Switch label="One answer only" disabled={locked} {...form.getInputProps(`prompts.${p}.single_select`, { type: "checkbox" })} />
                <Switch label="Required" disabled={locked} {...form.getInputProps(`prompts.${p}.required`, { type: "checkbox" })} />
                <Switch label="Ask before joining" disabled={locked} {...form.getInputProps(`prompts.${p}.in_onboarding`, { type: "checkbox" })} />
              </Group>
              <Stack gap="xs">
                {prompt.options.map((option, o) => (
                  <PromptOptionRow key={option.key} form={form} promptIndex={p} index={o} count={prompt.options.length} data={data} locked={locked} />
                ))}
              </Stack>
              {typeof optionsError === "string" ? (
                <Text size="sm" c="red" data-invalid>
                  {optionsError}
                </Text>
              ) : null}
              <Group>
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconPlus size={14} />}
                  disabled={locked || prompt.options.length >= ONBOARDING_OPTIONS_MAX}
                  onClick={() => form.insertListItem(`prompts.${p}.options`, newOption())}
                >
                  Add answer
                </Button>
              </Group>
            </Stack>
          </Paper>
        );
      })}
      {typeof listError === "string" ? (
        <Text size="sm" c="red" data-invalid>
          {listError}
        </Text>
      ) : null}
      <Group>
        <Button
          variant="default"
          leftSection={<IconPlus size={16} />}
          disabled={locked || prompts.length >= ONBOARDING_PROMPTS_MAX}
          onClick={() => form.insertListItem("prompts", newPrompt())}
        >
          Add question
        </Button>
      </Group>
    </SectionCard>
  );
}
