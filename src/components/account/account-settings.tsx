"use client";

import { Radio, Stack, Text, Title } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { PageSkeleton } from "~/components/page-skeleton.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import type { ProfilePrivacy } from "~/server/gateway/presence-privacy.ts";
import { api } from "~/trpc/react.tsx";

const LABELS: Record<ProfilePrivacy, string> = {
  everyone: "Everyone",
  friends_and_small_servers: "Friends and small servers",
  friends_only: "Friends only",
};

/** The signed-in user's account settings: who sees their custom status. Each choice's effect comes from the server's rule. */
export function AccountSettings() {
  const utils = api.useUtils();
  const settings = api.account.get.useQuery();
  const update = api.account.update.useMutation({
    onSuccess: (saved) => {
      utils.account.get.setData(undefined, saved);
      notifySuccess(`Custom status: ${LABELS[saved.profile_privacy].toLowerCase()}.`, "Privacy saved");
    },
    onError: (error) => notifyFailure("Could not save your privacy", error),
  });
  if (settings.isError) return <QueryError error={settings.error} onRetry={() => void settings.refetch()} title="Could not load your account" />;
  if (settings.isPending) return <PageSkeleton blocks={1} />;
  const value = update.isPending ? update.variables.profile_privacy : settings.data.profile_privacy;
  const effect = settings.data.choices.find((choice) => choice.value === value)?.effect;

  return (
    <Stack gap="lg" maw={960} mx="auto">
      <Title order={1} fz={26}>
        Account
      </Title>
      <SectionCard
        id="privacy"
        title="Profile privacy"
        description="Who sees your custom status in your presence. Your online status and other activities are shown either way."
      >
        <Radio.Group label="Show my custom status to" value={value} onChange={(next) => update.mutate({ profile_privacy: next })}>
          <Stack gap="sm" mt="xs">
            {settings.data.choices.map((choice) => (
              <Radio key={choice.value} value={choice.value} label={LABELS[choice.value]} description={choice.effect} disabled={update.isPending} />
            ))}
          </Stack>
        </Radio.Group>
        {effect ? (
          <Text size="sm" role="status" aria-live="polite">
            Now: {effect}
          </Text>
        ) : null}
      </SectionCard>
    </Stack>
  );
}
