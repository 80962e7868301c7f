"use client";

import { Button, Group, Select, Stack, Switch, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ChannelType } from "discord-api-types/v10";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import type { ApiClientError } from "~/components/forms/server-errors.ts";
import { normalizeChannelName } from "~/server/channels/channel-name.ts";
import { CHANNEL_NAME_MAX, CHANNEL_TOPIC_MAX, fieldAppliesTo, ZChannelCreateBodySchema } from "~/server/channels/channel.schema.ts";
import type { RouterInputs, RouterOutputs } from "~/trpc/react.tsx";
import { CHANNEL_TYPE_OPTIONS, SLOWMODE_OPTIONS } from "./channel-types.ts";

export type ChannelObject = RouterOutputs["channel"]["list"][number];
type ChannelCreateBody = RouterInputs["channel"]["create"]["body"];
type ChannelModifyBody = RouterInputs["channel"]["modify"]["body"];

export type ChannelValues = { type: string; name: string; topic: string; parent_id: string | null; nsfw: boolean; rate_limit_per_user: string };

export function toChannelValues(channel: ChannelObject | null, defaults: Partial<ChannelValues> = {}): ChannelValues {
  return {
    type: String(channel?.type ?? ChannelType.GuildText),
    name: channel?.name ?? "",
    topic: channel?.topic ?? "",
    parent_id: channel?.parent_id ?? null,
    nsfw: channel?.nsfw ?? false,
    rate_limit_per_user: String(channel?.rate_limit_per_user ?? 0),
    ...defaults,
  };
}

/** The create/modify body for the fields this channel type uses. */
export function toChannelBody(values: ChannelValues): ChannelCreateBody {
  const type = Number(values.type);
  return {
    name: values.name,
    type,
    ...(fieldAppliesTo("topic", type) && { topic: values.topic.trim() === "" ? null : values.topic }),
    ...(fieldAppliesTo("parent_id", type) && { parent_id: values.parent_id }),
    ...(fieldAppliesTo("nsfw", type) && { nsfw: values.nsfw }),
    ...(fieldAppliesTo("rate_limit_per_user", type) && { rate_limit_per_user: Number(values.rate_limit_per_user) }),
  };
}

const validateBody = bodyValidator(ZChannelCreateBodySchema);

/** Only what changed: an edit leaves the other fields alone. */
export function changedChannelBody(values: ChannelValues, initial: ChannelValues): ChannelModifyBody {
  const next = toChannelBody(values);
  const before = toChannelBody(initial);
  return Object.fromEntries(Object.entries(next).filter(([key, value]) => before[key as keyof ChannelCreateBody] !== value));
}

type Props = {
  mode: "create" | "edit";
  initialValues: ChannelValues;
  categories: ChannelObject[];
  submitting: boolean;
  /** Saves; a rejection with field errors shows them on the form. */
  onSubmit: (values: ChannelValues, initial: ChannelValues) => Promise<unknown>;
  onCancel: () => void;
};

export function ChannelForm({ mode, initialValues, categories, submitting, onSubmit, onCancel }: Props) {
  const form = useForm<ChannelValues>({ initialValues, validate: (values) => validateBody(toChannelBody(values)), validateInputOnBlur: ["name", "topic"] });
  const feedback = useSaveFeedback(form, mode === "create" ? "Could not create the channel" : "Could not save the channel", () => [
    "type",
    "name",
    "topic",
    "parent_id",
    "nsfw",
    "rate_limit_per_user",
  ]);
  const type = Number(form.values.type);
  const typedName = form.values.name.trim();
  const savedName = normalizeChannelName(type, typedName);
  // The server saves text-like names lower case and dashed; say so while the name is typed.
  const nameHint =
    !form.isDirty("name") || typedName === savedName ? undefined : savedName ? `Will be saved as #${savedName}` : "Needs a letter, number or emoji";
  const submit = async (values: ChannelValues) => {
    try {
      await onSubmit(values, form.getInitialValues());
    } catch (error) {
      feedback.onServerError(error as ApiClientError);
    }
  };

  return (
    <form ref={feedback.ref} onSubmit={form.onSubmit((values) => void submit(values), feedback.onInvalid)} noValidate>
      <Stack gap="md">
        <Select
          label="Channel type"
          data={CHANNEL_TYPE_OPTIONS}
          allowDeselect={false}
          disabled={mode === "edit"}
          description={mode === "edit" ? "A channel's type is set when it is created." : undefined}
          {...form.getInputProps("type")}
        />
        <TextInput
          label={type === ChannelType.GuildCategory ? "Category name" : "Channel name"}
          required
          maxLength={CHANNEL_NAME_MAX}
          description={nameHint}
          inputWrapperOrder={["label", "input", "description", "error"]}
          data-autofocus
          {...form.getInputProps("name")}
        />
        {fieldAppliesTo("topic", type) ? (
          <Textarea
            label="Topic"
            description="Shown at the top of the channel."
            autosize
            minRows={2}
            maxRows={5}
            maxLength={CHANNEL_TOPIC_MAX}
            {...form.getInputProps("topic")}
          />
        ) : null}
        {fieldAppliesTo("parent_id", type) ? (
          <Select
            label="Category"
            placeholder="No category"
            data={categories.map((c) => ({ value: c.id, label: c.name }))}
            clearable
            {...form.getInputProps("parent_id")}
          />
        ) : null}
        {mode === "edit" && fieldAppliesTo("rate_limit_per_user", type) ? (
          <Select
            label="Slowmode"
            description="How long members wait between messages."
            data={SLOWMODE_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps("rate_limit_per_user")}
          />
        ) : null}
        {mode === "edit" && fieldAppliesTo("nsfw", type) ? (
          <Switch label="Age-restricted" description="Members confirm they are of age before viewing." {...form.getInputProps("nsfw", { type: "checkbox" })} />
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={submitting} disabled={mode === "edit" && !form.isDirty()}>
            {mode === "create" ? "Create channel" : "Save channel"}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
