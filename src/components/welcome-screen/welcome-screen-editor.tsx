"use client";

import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { GuildFeature } from "discord-api-types/v10";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess } from "~/components/forms/server-errors.ts";
import { TEXT_CHANNEL_TYPES } from "~/components/guild-settings/settings-options.ts";
import { useSectionDenials } from "~/components/guild/use-section-denials.ts";
import { ListItemControls } from "~/components/forms/list-item-controls.tsx";
import { IconLock, IconPlus } from "~/components/icons.tsx";
import { PageSkeleton } from "~/components/page-skeleton.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader, SectionCard } from "~/components/section-card.tsx";
import {
  WELCOME_CHANNEL_DESCRIPTION_MAX,
  WELCOME_CHANNELS_MAX,
  WELCOME_DESCRIPTION_MAX,
  ZWelcomeScreenBodySchema,
} from "~/server/guild-config/guild-config.schema.ts";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { WelcomePreview } from "./welcome-preview.tsx";
import { toWelcomeBody, toWelcomeValues, type WelcomeScreen, type WelcomeValues } from "./welcome-values.ts";

type Guild = RouterOutputs["guild"]["get"];
type Channel = RouterOutputs["channel"]["list"][number];

const validateBody = bodyValidator(ZWelcomeScreenBodySchema);

/** The welcome screen members see when they join through an invite: description and up to five channels. */
export function WelcomeScreenEditor({ guildId }: { guildId: string }) {
  const guild = api.guild.get.useQuery({ guildId });
  const denials = useSectionDenials(guildId);
  const lockReason = denials?.welcomeScreen.edit ?? null;
  const readReason = denials?.welcomeScreen.read ?? null;
  const enabled = guild.data?.features.includes(GuildFeature.WelcomeScreenEnabled) ?? false;
  const screen = api.guildConfig.welcomeScreen.useQuery({ guildId }, { enabled: denials !== undefined && readReason === null });
  const channels = api.channel.list.useQuery({ guildId });

  const header = <PageHeader title="Welcome screen" description="What members see first when they join through an invite." />;
  if (guild.isError) return <QueryError error={guild.error} onRetry={() => void guild.refetch()} title="Could not load the guild" />;
  if (guild.isPending || !denials) return <PageSkeleton blocks={2} />;
  if (readReason) {
    return (
      <Stack gap="lg">
        {header}
        <Alert color="gray" icon={<IconLock size={16} />} title="The welcome screen is off">
          {readReason} Only members who can manage the guild see a welcome screen that is not enabled.
        </Alert>
      </Stack>
    );
  }
  if (screen.isError) return <QueryError error={screen.error} onRetry={() => void screen.refetch()} title="Could not load the welcome screen" />;
  if (screen.isPending) return <PageSkeleton blocks={2} />;
  return (
    <Stack gap="lg">
      {header}
      <WelcomeForm
        key={JSON.stringify([screen.data, enabled])}
        guild={guild.data}
        screen={screen.data}
        enabled={enabled}
        channels={channels.data ?? []}
        lockReason={lockReason}
      />
    </Stack>
  );
}

type FormProps = { guild: Guild; screen: WelcomeScreen; enabled: boolean; channels: Channel[]; lockReason: string | null };

function WelcomeForm({ guild, screen, enabled, channels, lockReason }: FormProps) {
  const utils = api.useUtils();
  const locked = lockReason !== null;
  const form = useForm<WelcomeValues>({
    initialValues: toWelcomeValues(screen, enabled),
    validate: (values) => validateBody(toWelcomeBody(values)),
  });
  const feedback = useSaveFeedback(form, "Welcome screen not saved", () => ["description", "welcome_channels", "enabled"]);
  const update = api.guildConfig.updateWelcomeScreen.useMutation({
    onSuccess: async (saved, { body }) => {
      utils.guildConfig.welcomeScreen.setData({ guildId: guild.id }, saved);
      await utils.guild.get.invalidate({ guildId: guild.id });
      notifySuccess(body.enabled ? "New members see it when they join through an invite." : "Saved; it shows once enabled.", "Welcome screen saved");
    },
    onError: (error) => feedback.onServerError(error),
  });
  const options = channels.filter((c) => TEXT_CHANNEL_TYPES.includes(c.type)).map((c) => ({ value: c.id, label: `# ${c.name}` }));
  const names = new Map(channels.map((c) => [c.id, c.name]));
  const rows = form.values.welcome_channels;

  return (
    <form
      ref={feedback.ref}
      onSubmit={form.onSubmit((values) => update.mutate({ guildId: guild.id, body: toWelcomeBody(values) }), feedback.onInvalid)}
      noValidate
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="lg">
          <SectionCard title="Content" id="welcome-content">
            {lockReason ? (
              <Text size="xs" c="orange.8" fw={500}>
                <IconLock size={11} style={{ verticalAlign: "-1px" }} /> {lockReason}
              </Text>
            ) : null}
            <Switch
              label="Show the welcome screen"
              description="Members joining through an invite see it before the guild."
              disabled={locked}
              {...form.getInputProps("enabled", { type: "checkbox" })}
            />
            <Textarea
              label="Description"
              description={`What the guild is about, up to ${WELCOME_DESCRIPTION_MAX} characters (${form.values.description.length}/${WELCOME_DESCRIPTION_MAX}).`}
              autosize
              minRows={2}
              maxLength={WELCOME_DESCRIPTION_MAX}
              disabled={locked}
              {...form.getInputProps("description")}
            />
          </SectionCard>
          <SectionCard title="Recommended channels" id="welcome-channels" description={`Up to ${WELCOME_CHANNELS_MAX}, each with what to do there.`}>
            {rows.length === 0 ? (
              <Text size="sm" c="dimmed">
                No channels yet.
              </Text>
            ) : null}
            {rows.map((row, index) => (
              <Paper
                key={index}
                withBorder
                p="sm"
                radius="md"
                aria-label={`Recommended channel ${index + 1}`}
                role="group"
                // A row with a problem stands out, not only its field.
                style={
                  Object.keys(form.errors).some((path) => path.startsWith(`welcome_channels.${index}.`))
                    ? { borderColor: "var(--mantine-color-error)" }
                    : undefined
                }
              >
                <Stack gap="xs">
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <TextInput
                      label="Emoji"
                      w={72}
                      maxLength={8}
                      disabled={locked}
                      aria-label={`Emoji of channel ${index + 1}`}
                      {...form.getInputProps(`welcome_channels.${index}.emoji_name`)}
                    />
                    <Select
                      flex={1}
                      label="Channel"
                      placeholder="Pick a channel"
                      data={options}
                      searchable
                      // A save that stops here focuses the field; its message stays in view until it is clicked.
                      openOnFocus={false}
                      disabled={locked}
                      allowDeselect={false}
                      {...form.getInputProps(`welcome_channels.${index}.channel_id`)}
                    />
                  </Group>
                  <TextInput
                    label="What to do there"
                    maxLength={WELCOME_CHANNEL_DESCRIPTION_MAX}
                    disabled={locked}
                    {...form.getInputProps(`welcome_channels.${index}.description`)}
                  />
                  <Group justify="flex-end">
                    <ListItemControls form={form} list="welcome_channels" index={index} count={rows.length} label={`channel ${index + 1}`} disabled={locked} />
                  </Group>
                </Stack>
              </Paper>
            ))}
            {typeof form.errors.welcome_channels === "string" ? (
              <Text size="sm" c="red" data-invalid>
                {form.errors.welcome_channels}
              </Text>
            ) : null}
            <Group>
              <Button
                variant="default"
                leftSection={<IconPlus size={16} />}
                disabled={locked || rows.length >= WELCOME_CHANNELS_MAX}
                onClick={() => form.insertListItem("welcome_channels", { channel_id: "", description: "", emoji_id: null, emoji_name: "" })}
              >
                Add channel
              </Button>
            </Group>
          </SectionCard>
          <Group justify="flex-end">
            <Button variant="default" disabled={locked || !form.isDirty()} onClick={() => form.reset()}>
              Discard
            </Button>
            <Button type="submit" disabled={locked || !form.isDirty()} loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Preview
          </Text>
          <WelcomePreview guild={guild} values={form.values} channelName={(id) => names.get(id)} />
        </Stack>
      </SimpleGrid>
    </form>
  );
}
