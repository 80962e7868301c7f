"use client";

import { Stack, Switch } from "@mantine/core";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import type { TApplicationEditBody } from "~/server/applications/application.schema.ts";
import { api } from "~/trpc/react.tsx";
import type { ApplicationDetail } from "./application-types.ts";

/** Who may add the bot, and whether adding it goes through the full OAuth2 code grant. */
export function BotAccessSwitches({ application }: { application: ApplicationDetail }) {
  const utils = api.useUtils();
  const edit = api.application.edit.useMutation({
    onSuccess: (updated) => {
      utils.application.get.setData({ applicationId: application.id }, updated);
      notifySuccess("Who may add the bot, and how, was saved.", "Bot settings saved");
    },
    onError: (error) => notifyFailure("Could not change the bot setting", error),
  });
  // While a change is saving, its switch shows the value asked for.
  const pending: TApplicationEditBody = edit.isPending ? edit.variables.body : {};
  const change = (body: TApplicationEditBody) => edit.mutate({ applicationId: application.id, body });
  const isPublic = pending.botPublic ?? application.bot.isPublic;
  const requireCodeGrant = pending.botRequireCodeGrant ?? application.bot.requireCodeGrant;
  return (
    <Stack gap="md">
      <Switch
        label="Public bot"
        description="Anyone who manages a guild may add your bot with its install link. Off, only you can add it."
        checked={isPublic}
        disabled={edit.isPending}
        onChange={(event) => change({ botPublic: event.currentTarget.checked })}
      />
      <Switch
        label="Requires OAuth2 code grant"
        description="Adding the bot goes through the full code grant: the person is sent back to one of your redirect URIs with a code, which your server exchanges. Only turn this on if your server needs that code."
        checked={requireCodeGrant}
        disabled={edit.isPending}
        onChange={(event) => change({ botRequireCodeGrant: event.currentTarget.checked })}
      />
    </Stack>
  );
}
