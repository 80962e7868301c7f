"use client";

import { Alert, Stack } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { useSectionDenials } from "~/components/guild/use-section-denials.ts";
import { PageHeader } from "~/components/section-card.tsx";
import { formatDateTime } from "~/components/time/time-format.ts";
import { useNow } from "~/components/time/use-now.ts";
import { api } from "~/trpc/react.tsx";
import { IncidentActionCard } from "./incident-action-card.tsx";

type Field = "invites_disabled_until" | "dms_disabled_until";

/** Incident actions (PUT /guilds/{id}/incident-actions): pause joining or DMs for up to 24 hours. */
export function SafetyManager({ guildId }: { guildId: string }) {
  const utils = api.useUtils();
  const guild = api.guild.get.useQuery({ guildId });
  const lockReason = useSectionDenials(guildId)?.safety ?? null;
  const now = useNow(1000);

  const set = api.guildConfig.setIncidentActions.useMutation({
    onSuccess: async (data, { body }) => {
      const field = Object.keys(body)[0] as Field;
      const what = field === "invites_disabled_until" ? "Invites" : "Direct messages";
      notifySuccess(data[field] ? `${what} are paused until ${formatDateTime(data[field])}.` : `${what} work again.`, data[field] ? "Paused" : "Resumed");
      await utils.guild.get.invalidate({ guildId });
    },
    onError: (error) => notifyFailure("Could not change the safety action", error),
  });
  const incidents = guild.data?.incidents_data ?? null;
  const card = (field: Field) => ({
    until: incidents?.[field] ?? null,
    now,
    lockReason,
    pending: set.isPending && field in set.variables.body,
    onPause: (until: string) => set.mutate({ guildId, body: { [field]: until } }),
    onResume: () => set.mutate({ guildId, body: { [field]: null } }),
  });

  return (
    <Stack gap="lg">
      <PageHeader title="Safety" description="Stop a raid or a spam wave for a while. Each pause lasts at most 24 hours and can be ended early." />
      <IncidentActionCard
        id="pause-invites"
        title="Pause invites"
        description="Nobody new can join through an invite or the vanity URL while paused. Members stay, and invites are kept for afterwards."
        {...card("invites_disabled_until")}
      />
      <IncidentActionCard
        id="pause-dms"
        title="Pause direct messages"
        description="Members who are not friends cannot start direct messages with each other through this guild while paused."
        {...card("dms_disabled_until")}
      />
      <Alert variant="light" color="gray" title="Pausing for longer">
        To pause invites until you turn them back on, use the switch on the Invites page.
      </Alert>
    </Stack>
  );
}
