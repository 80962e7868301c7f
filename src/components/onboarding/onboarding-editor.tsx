"use client";

import { Alert, Button, Group, Stack } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMemo } from "react";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess } from "~/components/forms/server-errors.ts";
import { useSectionDenials } from "~/components/guild/use-section-denials.ts";
import { IconLock } from "~/components/icons.tsx";
import { PageSkeleton } from "~/components/page-skeleton.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { checkOnboardingRule } from "~/server/guild-config/onboarding-rule.ts";
import { ZOnboardingBodySchema } from "~/server/guild-config/onboarding.schema.ts";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { DefaultChannelsPicker } from "./default-channels-picker.tsx";
import {
  errorFieldPaths,
  toOnboardingBody,
  toOnboardingValues,
  toSelection,
  type ChannelGroup,
  type Onboarding,
  type OnboardingValues,
} from "./onboarding-values.ts";
import type { SelectData } from "./prompt-option-row.tsx";
import { PromptsBuilder } from "./prompts-builder.tsx";
import { RequirementCard } from "./requirement-card.tsx";

type Role = RouterOutputs["role"]["list"][number];

const validateBody = bodyValidator(ZOnboardingBodySchema);

/** What new members go through when they join: default channels, questions, and the switch that turns it on. */
export function OnboardingEditor({ guildId }: { guildId: string }) {
  const denials = useSectionDenials(guildId);
  const onboarding = api.onboarding.get.useQuery({ guildId });
  const channels = api.onboarding.channels.useQuery({ guildId });
  const roles = api.role.list.useQuery({ guildId });

  if (onboarding.isError || channels.isError || roles.isError) {
    const retry = () => void Promise.all([onboarding.refetch(), channels.refetch(), roles.refetch()]);
    return <QueryError error={(onboarding.error ?? channels.error ?? roles.error)!} onRetry={retry} title="Could not load onboarding" />;
  }
  if (onboarding.isPending || channels.isPending || roles.isPending || !denials) return <PageSkeleton blocks={3} />;
  return (
    <Stack gap="lg" maw={960} mx="auto">
      <PageHeader
        title="Onboarding"
        description="What new members go through when they join: the channels they start in and questions that add channels and roles."
      />
      <OnboardingForm
        key={JSON.stringify(onboarding.data)}
        guildId={guildId}
        onboarding={onboarding.data}
        groups={channels.data}
        roles={roles.data}
        lockReason={denials.onboarding}
      />
    </Stack>
  );
}

type FormProps = { guildId: string; onboarding: Onboarding; groups: ChannelGroup[]; roles: readonly Role[]; lockReason: string | null };

function OnboardingForm({ guildId, onboarding, groups, roles, lockReason }: FormProps) {
  const utils = api.useUtils();
  const locked = lockReason !== null;
  const form = useForm<OnboardingValues>({
    initialValues: toOnboardingValues(onboarding),
    validate: (values) => validateBody(toOnboardingBody(values)),
  });
  const feedback = useSaveFeedback(form, "Onboarding not saved", () => errorFieldPaths(form.values));
  const put = api.onboarding.put.useMutation({
    onSuccess: (saved) => {
      utils.onboarding.get.setData({ guildId }, saved);
      notifySuccess(saved.enabled ? "New members go through onboarding when they join." : "Saved. Onboarding is off.", "Onboarding saved");
    },
    onError: (error) => feedback.onServerError(error),
  });

  const data = useMemo<SelectData>(
    () => ({
      channels: groups.map((group) => ({
        group: group.category?.name ?? "No category",
        items: group.channels.map((channel) => ({ value: channel.id, label: `# ${channel.name}` })),
      })),
      // @everyone and integration roles cannot be handed out; the server also checks the hierarchy.
      roles: roles.filter((role) => role.id !== guildId && !role.managed).map((role) => ({ value: role.id, label: role.name })),
    }),
    [groups, roles, guildId],
  );
  const chatIds = useMemo(() => new Set(groups.flatMap((group) => group.channels.filter((c) => c.everyone_can_chat).map((c) => c.id))), [groups]);
  const check = checkOnboardingRule(toSelection(form.values), (id) => chatIds.has(id));
  const dirty = form.isDirty();

  return (
    <form ref={feedback.ref} onSubmit={form.onSubmit((values) => put.mutate({ guildId, body: toOnboardingBody(values) }), feedback.onInvalid)} noValidate>
      <Stack gap="lg">
        {lockReason ? (
          <Alert color="gray" variant="light" icon={<IconLock size={18} />} title="View only">
            You can look at onboarding but not change it. {lockReason}
          </Alert>
        ) : null}
        <RequirementCard form={form} check={check} isSavedEnabled={onboarding.enabled} locked={locked} />
        <DefaultChannelsPicker
          groups={groups}
          value={form.values.default_channel_ids}
          onChange={(ids) => form.setFieldValue("default_channel_ids", ids)}
          error={typeof form.errors.default_channel_ids === "string" ? form.errors.default_channel_ids : undefined}
          locked={locked}
        />
        <PromptsBuilder form={form} data={data} locked={locked} />
        {/* The page is long: saving stays in reach from the switch at the top to the last answer. A viewer who may not change it has nothing to save. */}
        {locked ? null : (
          <Group justify="flex-end" pos="sticky" bottom={0} py="sm" bg="var(--app-page-bg)" style={{ zIndex: 2 }}>
            <Button variant="default" disabled={!dirty} onClick={() => form.reset()}>
              Discard
            </Button>
            <Button type="submit" disabled={!dirty} loading={put.isPending}>
              Save
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
