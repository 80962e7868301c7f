"use client";

import { Alert, Group, Progress, Radio, SimpleGrid, Stack, Switch, Text } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import { IconAlertTriangle, IconCheck } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { ONBOARDING_MIN_CHANNELS, ONBOARDING_MIN_CHAT_CHANNELS, type OnboardingRuleCheck } from "~/server/guild-config/onboarding-rule.ts";
import { MODE_CHOICES, type OnboardingValues } from "./onboarding-values.ts";

type Props = {
  form: UseFormReturnType<OnboardingValues>;
  check: OnboardingRuleCheck;
  /** Whether onboarding is on as saved (turning it off is always allowed). */
  isSavedEnabled: boolean;
  locked: boolean;
};

/** Mode, the live 7 / 5 counter for it, and the enable switch that waits for the counter. */
export function RequirementCard({ form, check, isSavedEnabled, locked }: Props) {
  const { values } = form;
  const advanced = values.mode === MODE_CHOICES[1].value;
  // Enabling waits for the rule; an enabled onboarding can always be switched off.
  const enableBlocked = !values.enabled && !check.isMet;
  const counted = advanced ? "default channels and channels from pre-join questions" : "default channels";

  return (
    <SectionCard
      title="Requirement and status"
      id="onboarding-status"
      description={`Onboarding can be on once at least ${ONBOARDING_MIN_CHANNELS} channels count, ${ONBOARDING_MIN_CHAT_CHANNELS} of them open to everyone for messages.`}
    >
      <Radio.Group label="Mode" description="What counts toward the requirement." {...form.getInputProps("mode")}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="xs">
          {MODE_CHOICES.map((choice) => (
            <Radio.Card key={choice.value} value={choice.value} disabled={locked} p="sm" radius="md" aria-label={choice.label}>
              <Group wrap="nowrap" align="flex-start" gap="sm">
                <Radio.Indicator disabled={locked} />
                <div>
                  <Text fw={600} size="sm">
                    {choice.label}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {choice.description}
                  </Text>
                </div>
              </Group>
            </Radio.Card>
          ))}
        </SimpleGrid>
      </Radio.Group>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" aria-live="polite">
        <Counter label="Channels that count" hint={counted} value={check.channels} goal={ONBOARDING_MIN_CHANNELS} />
        <Counter
          label="Open to everyone for messages"
          hint="@everyone can view and send messages"
          value={check.chatChannels}
          goal={ONBOARDING_MIN_CHAT_CHANNELS}
        />
      </SimpleGrid>

      <Switch
        label="Onboarding enabled"
        description={
          enableBlocked ? `Can be turned on once the requirement is met. Still short: ${check.shortfall}.` : "New members go through onboarding when they join."
        }
        disabled={locked || enableBlocked}
        {...form.getInputProps("enabled", { type: "checkbox" })}
      />
      {values.enabled && !check.isMet ? (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Below the requirement">
          While onboarding is on, changes are refused until the requirement holds again (short: {check.shortfall}). Add channels or
          {isSavedEnabled ? " turn onboarding off to save." : " leave it off for now."}
        </Alert>
      ) : null}
    </SectionCard>
  );
}

function Counter({ label, hint, value, goal }: { label: string; hint: string; value: number; goal: number }) {
  const met = value >= goal;
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Group gap={4} wrap="nowrap" c={met ? "teal" : "orange.8"}>
          {met ? <IconCheck size={16} /> : null}
          <Text size="sm" fw={700} c="inherit">
            {value} / {goal}
          </Text>
        </Group>
      </Group>
      <Progress value={Math.min(100, (value / goal) * 100)} color={met ? "teal" : "orange"} aria-label={`${label}: ${value} of ${goal}`} />
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
    </Stack>
  );
}
