"use client";

import { Alert, Box, Checkbox, Input, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { GuildFeature } from "discord-api-types/v10";
import { useMemo } from "react";
import { ImageField } from "~/components/forms/image-field.tsx";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { SaveBar } from "~/components/forms/save-bar.tsx";
import { notifySuccess } from "~/components/forms/server-errors.ts";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import { useSectionDenials, type SectionDenials } from "~/components/guild/use-section-denials.ts";
import { IconAlertTriangle, IconLock } from "~/components/icons.tsx";
import { PageSkeleton } from "~/components/page-skeleton.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader, SectionCard } from "~/components/section-card.tsx";
import { GUILD_DESCRIPTION_MAX, GUILD_NAME_MAX, ZGuildModifyBodySchema } from "~/server/guilds/guild.schema.ts";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { DeleteGuildSection } from "./delete-guild-section.tsx";
import { TransferOwnershipSection } from "./transfer-ownership-section.tsx";
import { ScreeningSection } from "./screening-section.tsx";
import { VanityUrlSection } from "./vanity-url-section.tsx";
import {
  AFK_TIMEOUT_OPTIONS,
  CONTENT_FILTERS,
  FEATURE_TOGGLES,
  LOCALE_OPTIONS,
  NOTIFICATION_LEVELS,
  SYSTEM_CHANNEL_MESSAGES,
  TEXT_CHANNEL_TYPES,
  VERIFICATION_LEVELS,
  VOICE_CHANNEL_TYPES,
} from "./settings-options.ts";
import { changedBody, toModifyBody, toSettingsValues, type GuildObject, type SettingsValues } from "./settings-values.ts";

type Channel = RouterOutputs["channel"]["list"][number];

// The guild's images: which field, where the CDN serves it, and what it needs.
const GUILD_IMAGES = [
  { field: "icon", cdnFolder: "icons", shape: "square", label: "Icon", description: "Square, at least 512×512. Animated GIFs need the Animated Icon feature." },
  { field: "banner", cdnFolder: "banners", shape: "wide", label: "Banner", description: "16:9, shown above the channel list." },
  {
    field: "splash",
    cdnFolder: "splashes",
    shape: "wide",
    label: "Invite splash",
    description: "16:9 background of invite pages.",
  },
  {
    field: "discovery_splash",
    cdnFolder: "discovery-splashes",
    shape: "wide",
    label: "Discovery splash",
    description: "16:9 image in discovery.",
  },
] as const;

const validateBody = bodyValidator(ZGuildModifyBodySchema);

export function GuildSettings({ guildId }: { guildId: string }) {
  const guild = api.guild.get.useQuery({ guildId });
  const channels = api.channel.list.useQuery({ guildId });
  const denials = useSectionDenials(guildId);

  if (guild.isError) return <QueryError error={guild.error} onRetry={() => void guild.refetch()} title="Could not load the guild" />;
  if (guild.isPending || !denials) return <PageSkeleton blocks={4} />;
  return <SettingsForm guild={guild.data} channels={channels.data ?? []} denials={denials} />;
}

function SettingsForm({ guild, channels, denials }: { guild: GuildObject; channels: Channel[]; denials: SectionDenials }) {
  const utils = api.useUtils();
  const lockReason = denials.settings;
  const locked = lockReason !== null;
  const form = useForm<SettingsValues>({
    initialValues: toSettingsValues(guild),
    validate: (values) => validateBody(toModifyBody(values)),
    validateInputOnBlur: ["name", "description"],
  });
  const feedback = useSaveFeedback(form, "Settings not saved", () => Object.keys(form.values));

  const modify = api.guild.modify.useMutation({
    onSuccess: (updated) => {
      utils.guild.get.setData({ guildId: guild.id }, (previous) => ({
        ...updated,
        approximate_member_count: previous?.approximate_member_count,
        approximate_presence_count: previous?.approximate_presence_count,
      }));
      void utils.guild.list.invalidate();
      const next = toSettingsValues(updated);
      form.setInitialValues(next);
      form.setValues(next);
      form.resetDirty(next);
      notifySuccess("Your changes are live.", "Settings saved");
    },
    onError: (error) => feedback.onServerError(error),
  });

  const channelOptions = useMemo(() => {
    const byType = (types: readonly number[]) => channels.filter((c) => types.includes(c.type)).map((c) => ({ value: c.id, label: `# ${c.name}` }));
    return { text: byType(TEXT_CHANNEL_TYPES), voice: byType(VOICE_CHANNEL_TYPES).map((o) => ({ ...o, label: o.label.slice(2) })) };
  }, [channels]);

  // With the whole form locked the banner already says why; a feature explains only its own lock.
  const featureLock = (feature: keyof SectionDenials["features"]): string | null => (lockReason ? null : denials.features[feature]);

  const dirty = form.isDirty();
  const channelSelect = (
    field: "afk_channel_id" | "system_channel_id" | "rules_channel_id" | "public_updates_channel_id" | "safety_alerts_channel_id",
    label: string,
    description: string,
    voice = false,
  ) => (
    <Select
      label={label}
      description={description}
      placeholder="No channel"
      data={voice ? channelOptions.voice : channelOptions.text}
      clearable
      // Mantine hides the clear button from assistive technology and the tab order; here it is a named button like any other.
      clearButtonProps={{ "aria-label": `Clear ${label.toLowerCase()}`, "aria-hidden": false, tabIndex: 0 }}
      searchable
      nothingFoundMessage="No matching channel"
      disabled={locked}
      {...form.getInputProps(field)}
    />
  );

  return (
    <Stack gap="lg" maw={960} mx="auto">
      <form
        ref={feedback.ref}
        onSubmit={form.onSubmit((values) => {
          const body = changedBody(values, form.getInitialValues(), guild);
          if (Object.keys(body).length === 0) return;
          modify.mutate({ guildId: guild.id, body });
        }, feedback.onInvalid)}
        noValidate
      >
        <Stack gap="lg">
          <PageHeader title="Guild settings" description="How the guild looks and behaves for its members." />
          {locked ? (
            <Alert color="gray" variant="light" icon={<IconLock size={18} />} title="View only">
              You can look at these settings but need the Manage Guild permission to change them.
            </Alert>
          ) : null}

          <SectionCard title="Profile" description="What people see when they find or join the guild." id="profile">
            <TextInput label="Guild name" required maxLength={GUILD_NAME_MAX} disabled={locked} {...form.getInputProps("name")} />
            <Textarea
              label="Description"
              description={`Shown in discovery and invites. ${form.values.description.length}/${GUILD_DESCRIPTION_MAX}`}
              autosize
              minRows={2}
              maxRows={6}
              disabled={locked}
              {...form.getInputProps("description")}
            />
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              {GUILD_IMAGES.map((image) => {
                const hash = guild[image.field];
                return (
                  <ImageField
                    key={image.field}
                    label={image.label}
                    description={image.description}
                    shape={image.shape}
                    currentUrl={hash && cdnImageUrl(image.cdnFolder, guild.id, hash)}
                    value={form.values[image.field]}
                    onChange={(value) => form.setFieldValue(image.field, value)}
                    error={form.errors[image.field]}
                    disabled={locked}
                    lockReason={locked ? null : denials.images[image.field]}
                  />
                );
              })}
            </SimpleGrid>
          </SectionCard>

          <SectionCard title="Safety" description="Who may chat, and what is scanned." id="safety">
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              <Select
                label="Verification level"
                description="What members must meet before they can chat."
                data={VERIFICATION_LEVELS.map((level) => ({ value: level.value, label: `${level.label}: ${level.description}` }))}
                allowDeselect={false}
                disabled={locked}
                {...form.getInputProps("verification_level")}
              />
              <Select
                label="Explicit media filter"
                description="Which members' images are scanned."
                data={CONTENT_FILTERS}
                allowDeselect={false}
                disabled={locked}
                {...form.getInputProps("explicit_content_filter")}
              />
              <Select
                label="Default notifications"
                description="What members are notified about unless they choose otherwise."
                data={NOTIFICATION_LEVELS}
                allowDeselect={false}
                disabled={locked}
                {...form.getInputProps("default_message_notifications")}
              />
            </SimpleGrid>
          </SectionCard>

          <SectionCard title="Channels" description="Where the guild sends its own messages, and where idle members go." id="channels">
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              {channelSelect("afk_channel_id", "Inactive channel", "Members idle in voice are moved here.", true)}
              <Select
                label="Inactive timeout"
                description="How long before idle members are moved."
                data={AFK_TIMEOUT_OPTIONS}
                allowDeselect={false}
                disabled={locked}
                {...form.getInputProps("afk_timeout")}
              />
              {channelSelect("system_channel_id", "System messages channel", "Where the guild posts welcome and boost messages.")}
              {channelSelect("rules_channel_id", "Rules channel", "Where members read the guild's rules.")}
              {channelSelect("public_updates_channel_id", "Community updates channel", "Where the platform sends notices for moderators.")}
              {channelSelect("safety_alerts_channel_id", "Safety alerts channel", "Where raid and spam alerts are posted.")}
            </SimpleGrid>
            <Box role="group" aria-labelledby="system-messages-label">
              <Input.Label id="system-messages-label">System messages</Input.Label>
              <Input.Description>Which messages the guild sends to its system messages channel.</Input.Description>
              <Stack gap="xs" mt="sm">
                {SYSTEM_CHANNEL_MESSAGES.map(({ flag, label }) => (
                  <Checkbox
                    key={flag}
                    label={label}
                    disabled={locked}
                    checked={(form.values.system_channel_flags & flag) === 0}
                    onChange={(event) =>
                      form.setFieldValue(
                        "system_channel_flags",
                        event.currentTarget.checked ? form.values.system_channel_flags & ~flag : form.values.system_channel_flags | flag,
                      )
                    }
                  />
                ))}
              </Stack>
            </Box>
          </SectionCard>

          <SectionCard title="Language and display" id="display">
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              <Select
                label="Preferred language"
                description="Used for discovery and notices from the platform."
                data={LOCALE_OPTIONS}
                searchable
                allowDeselect={false}
                disabled={locked}
                {...form.getInputProps("preferred_locale")}
              />
            </SimpleGrid>
            <Switch
              label="Show the boost progress bar"
              description="Displays progress towards the next boost level in the channel list."
              disabled={locked}
              {...form.getInputProps("premium_progress_bar_enabled", { type: "checkbox" })}
            />
          </SectionCard>

          <SectionCard title="Features" description="Switch guild-wide behaviour on or off." id="features">
            {form.errors.features ? (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert" tabIndex={-1} data-invalid>
                {form.errors.features}
              </Alert>
            ) : null}
            {FEATURE_TOGGLES.map(({ feature, label, description }) => {
              const reason = featureLock(feature);
              const disabled = locked || reason !== null;
              return (
                <Switch
                  key={feature}
                  label={label}
                  description={
                    reason ? (
                      <>
                        {description}{" "}
                        <Text span size="xs" c="orange.8" fw={500}>
                          <IconLock size={11} style={{ verticalAlign: "-1px" }} /> {reason}
                        </Text>
                      </>
                    ) : (
                      description
                    )
                  }
                  disabled={disabled}
                  checked={form.values.features.includes(feature)}
                  onChange={(event) => {
                    const others = form.values.features.filter((f) => f !== feature);
                    form.setFieldValue("features", event.currentTarget.checked ? [...others, feature] : others);
                    form.clearFieldError("features");
                  }}
                />
              );
            })}
          </SectionCard>

          <SaveBar dirty={dirty} saving={modify.isPending} canSave={!locked} onDiscard={() => form.reset()} />
        </Stack>
      </form>
      <ScreeningSection guildId={guild.id} enabled={guild.features.includes(GuildFeature.MemberVerificationGateEnabled)} lockReason={lockReason} />
      {guild.features.includes(GuildFeature.VanityURL) ? (
        <VanityUrlSection guildId={guild.id} currentCode={guild.vanity_url_code} lockReason={lockReason} />
      ) : null}
      <TransferOwnershipSection guild={guild} />
      <DeleteGuildSection guild={guild} denial={denials.deleteGuild} />
    </Stack>
  );
}
