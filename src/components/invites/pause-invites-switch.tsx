"use client";

import { Card, Switch, Text } from "@mantine/core";
import { GuildFeature } from "discord-api-types/v10";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { useSectionDenials } from "~/components/guild/use-section-denials.ts";
import { IconLock } from "~/components/icons.tsx";
import { api } from "~/trpc/react.tsx";

/** INVITES_DISABLED through the guild's feature list, as the Settings page's Features section sets it. */
export function PauseInvitesSwitch({ guildId }: { guildId: string }) {
  const utils = api.useUtils();
  const guild = api.guild.get.useQuery({ guildId });
  const lockReason = useSectionDenials(guildId)?.features[GuildFeature.InvitesDisabled] ?? null;
  const features = guild.data?.features ?? [];
  const paused = features.includes(GuildFeature.InvitesDisabled);
  const modify = api.guild.modify.useMutation({
    onSuccess: async (updated) => {
      const nowPaused = updated.features.includes(GuildFeature.InvitesDisabled);
      notifySuccess(nowPaused ? "Nobody new can join through an invite." : "Invites work again.", nowPaused ? "Invites paused" : "Invites resumed");
      await utils.guild.get.invalidate({ guildId });
    },
    onError: (error) => notifyFailure("Could not change whether invites are paused", error),
  });
  const checked = modify.isPending ? (modify.variables.body.features?.includes(GuildFeature.InvitesDisabled) ?? paused) : paused;
  return (
    <Card padding="md" bg="var(--app-surface-bg)">
      <Switch
        label="Pause invites"
        description={
          lockReason ? (
            <Text span size="xs" c="orange.8" fw={500}>
              <IconLock size={11} style={{ verticalAlign: "-1px" }} /> {lockReason}
            </Text>
          ) : (
            "While paused, every invite link shows that invites are paused and nobody new can join. Existing invites are kept."
          )
        }
        disabled={lockReason !== null || !guild.data || modify.isPending}
        checked={checked}
        onChange={(event) => {
          const others = features.filter((feature) => feature !== GuildFeature.InvitesDisabled);
          modify.mutate({ guildId, body: { features: event.currentTarget.checked ? [...others, GuildFeature.InvitesDisabled] : others } });
        }}
      />
    </Card>
  );
}
