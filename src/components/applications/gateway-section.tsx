"use client";

import { Code, Group, Switch } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { SectionCard } from "~/components/section-card.tsx";
import { api } from "~/trpc/react.tsx";
import type { ApplicationDetail } from "./application-types.ts";

/** The gateway's testing opt-ins: private channel obfuscation, as the capability bit in IDENTIFY would ask for it. */
export function GatewaySection({ application }: { application: ApplicationDetail }) {
  const utils = api.useUtils();
  const edit = api.application.edit.useMutation({
    onSuccess: (updated) => {
      utils.application.get.setData({ applicationId: application.id }, updated);
      notifySuccess(`Private channel obfuscation is ${updated.channelObfuscation ? "on" : "off"}.`, "Gateway settings saved");
    },
    onError: (error) => notifyFailure("Could not change the gateway setting", error),
  });
  const checked = edit.isPending ? (edit.variables.body.channelObfuscation ?? application.channelObfuscation) : application.channelObfuscation;

  return (
    <SectionCard id="gateway" title="Gateway">
      <Switch
        label={
          <Group gap={6} component="span">
            Private channel obfuscation <Code>CHANNEL_OBFUSCATION</Code>
          </Group>
        }
        description="Your bot receives channels it cannot view over the gateway, named ___hidden___ with their details removed, instead of not at all. Applies to sessions that identify after the change."
        checked={checked}
        disabled={edit.isPending}
        onChange={(event) => edit.mutate({ applicationId: application.id, body: { channelObfuscation: event.currentTarget.checked } })}
      />
    </SectionCard>
  );
}
