"use client";

import { Switch, Text } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconLock } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { api } from "~/trpc/react.tsx";

/**
 * Membership screening: while on, people who join are pending (they can only look around)
 * until they agree to the rules. Switched at once, on its own, like the REST endpoint.
 */
export function ScreeningSection({ guildId, enabled, lockReason }: { guildId: string; enabled: boolean; lockReason: string | null }) {
  const utils = api.useUtils();
  const setScreening = api.member.setScreening.useMutation({
    onSuccess: async (result) => {
      notifySuccess(result.enabled ? "New members must complete screening." : "New members can talk at once.", "Membership screening");
      await utils.guild.get.invalidate({ guildId });
    },
    onError: (error) => notifyFailure("Could not change membership screening", error),
  });
  return (
    <SectionCard title="Membership screening" description="What people who join must do before they can talk." id="screening">
      <Switch
        label="Require new members to complete screening"
        description={
          lockReason ? (
            <Text span size="xs" c="orange.8" fw={500}>
              <IconLock size={11} style={{ verticalAlign: "-1px" }} /> {lockReason}
            </Text>
          ) : (
            "They join as pending and can only view channels until they agree to the rules. Members already pending stay so until they complete it."
          )
        }
        disabled={lockReason !== null || setScreening.isPending}
        checked={setScreening.isPending ? (setScreening.variables?.enabled ?? enabled) : enabled}
        onChange={(event) => setScreening.mutate({ guildId, enabled: event.currentTarget.checked })}
      />
    </SectionCard>
  );
}
