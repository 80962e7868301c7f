"use client";

import { Select, SimpleGrid, Switch, Text } from "@mantine/core";
import { ChannelType } from "discord-api-types/v10";
import { errorText, fieldError, fieldErrorsOf, notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconLock } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import type { TWidgetSettingsBody } from "~/server/guild-config/widget.schema.ts";
import { api, type RouterOutputs } from "~/trpc/react.tsx";

type Settings = RouterOutputs["widget"]["settings"];

// Select options need a value; this one stands for "no invite channel".
const NO_INVITE = "none";

/** The widget's switch and invite channel, each saved as soon as it changes. */
export function WidgetSettingsCard({
  guildId,
  settings,
  lockReason,
  onSaved,
}: {
  guildId: string;
  settings: Settings;
  lockReason: string | null;
  onSaved: () => void;
}) {
  const utils = api.useUtils();
  const channels = api.channel.list.useQuery({ guildId });
  const invitable = (channels.data ?? []).filter((channel) => channel.type !== ChannelType.GuildCategory);
  const channelName = (id: string | null) => {
    const channel = invitable.find((c) => c.id === id);
    return channel ? channelLabel(channel) : "that channel";
  };
  const update = api.widget.update.useMutation({
    onSuccess: async (saved, { body }) => {
      utils.widget.settings.setData({ guildId }, saved);
      onSaved();
      await Promise.all([utils.guild.get.invalidate({ guildId }), utils.widget.preview.invalidate({ guildId })]);
      notifySuccess(savedMessage(body, saved, channelName), "Widget saved");
    },
    onError: (error) => notifyFailure("Widget not saved", error),
  });
  const locked = lockReason !== null;
  const save = (body: TWidgetSettingsBody) => update.mutate({ guildId, body });
  // While a change is saved the controls show it, and go back if it is refused.
  const pending: TWidgetSettingsBody = update.isPending ? (update.variables?.body ?? {}) : {};
  const enabled = pending.enabled ?? settings.enabled;
  const channelId = pending.channel_id !== undefined ? pending.channel_id : settings.channel_id;

  return (
    <SectionCard title="Settings" id="widget-settings">
      {lockReason ? (
        <Text size="xs" c="orange.8" fw={500}>
          <IconLock size={11} style={{ verticalAlign: "-1px" }} /> {lockReason}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Switch
          label="Enable the widget"
          description="Anyone, signed in or not, can then load the widget's images and JSON."
          checked={enabled}
          disabled={locked || update.isPending}
          onChange={(event) => save({ enabled: event.currentTarget.checked })}
        />
        <Select
          label="Invite channel"
          description="People who click the widget join through an invite to this channel."
          data={[{ value: NO_INVITE, label: "No invite" }, ...invitable.map((channel) => ({ value: channel.id, label: channelLabel(channel) }))]}
          value={channelId ?? NO_INVITE}
          allowDeselect={false}
          searchable
          disabled={locked || update.isPending}
          error={channels.isError ? errorText(channels.error) : fieldError(fieldErrorsOf(update.error), "channel_id")}
          onChange={(value) => save({ channel_id: value === NO_INVITE || value === null ? null : value })}
        />
      </SimpleGrid>
    </SectionCard>
  );
}

/** "#general" for text channels; voice and stage channels say what they are. */
function channelLabel(channel: { type: number; name: string | null; id: string }): string {
  const name = channel.name ?? channel.id;
  if (channel.type === ChannelType.GuildVoice) return `${name} (voice)`;
  if (channel.type === ChannelType.GuildStageVoice) return `${name} (stage)`;
  return `#${name}`;
}

function savedMessage(body: TWidgetSettingsBody, saved: Settings, channelName: (id: string | null) => string): string {
  if (body.enabled === true) return "The widget is on: anyone can load its images and JSON.";
  if (body.enabled === false) return "The widget is off: its images and JSON answer “Widget Disabled”.";
  return saved.channel_id ? `The widget invites people to ${channelName(saved.channel_id)}.` : "The widget shows no invite.";
}
