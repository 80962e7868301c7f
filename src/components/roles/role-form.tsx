"use client";

import { Button, ColorInput, Divider, Group, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import type { ApiClientError } from "~/components/forms/server-errors.ts";
import { ROLE_NAME_MAX, ZRoleParamsSchema } from "~/server/roles/role.schema.ts";
import { PermissionChecklist } from "./permission-checklist.tsx";
import { ROLE_SWATCHES, toRoleParams, type RoleValues } from "./role-values.ts";

const validateParams = bodyValidator(ZRoleParamsSchema);

type Props = {
  initialValues: RoleValues;
  /** @everyone: only its permissions can change. */
  isEveryone?: boolean;
  /** Why a permission bit can't be changed, or null (the default: none is locked). */
  permissionLock?: (bit: bigint) => string | null;
  submitLabel: string;
  submitting: boolean;
  /** Saves; a rejection with field errors shows them on the form. */
  onSubmit: (values: RoleValues, initial: RoleValues) => Promise<unknown>;
  failureTitle: string;
  onCancel: () => void;
  withPermissions?: boolean;
  /** Editing: nothing to save until something changed. */
  requireChanges?: boolean;
};

export function RoleForm({
  initialValues,
  isEveryone = false,
  permissionLock = () => null,
  submitLabel,
  submitting,
  onSubmit,
  failureTitle,
  onCancel,
  withPermissions = true,
  requireChanges = false,
}: Props) {
  const form = useForm<RoleValues>({
    initialValues,
    validate: (values) => validateParams(toRoleParams(values)),
    validateInputOnBlur: ["name"],
  });
  const feedback = useSaveFeedback(form, failureTitle, () => ["name", "color", "colors", "hoist", "mentionable", "permissions"]);
  const submit = async (values: RoleValues) => {
    try {
      await onSubmit(values, form.getInitialValues());
    } catch (error) {
      feedback.onServerError(error as ApiClientError);
    }
  };

  return (
    <form ref={feedback.ref} onSubmit={form.onSubmit((values) => void submit(values), feedback.onInvalid)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Role name"
          required
          maxLength={ROLE_NAME_MAX}
          disabled={isEveryone}
          description={isEveryone ? "Every member has @everyone; only its permissions can change." : undefined}
          data-autofocus
          {...form.getInputProps("name")}
        />
        <ColorInput
          label="Colour"
          description="Members show in the role's colour. Leave empty for the default."
          placeholder="Default"
          format="hex"
          swatches={ROLE_SWATCHES}
          swatchesPerRow={10}
          disabled={isEveryone}
          {...form.getInputProps("color")}
          error={form.errors.color ?? form.errors.colors}
        />
        <Switch
          label="Display members separately"
          description="Members with this role are listed in their own group."
          disabled={isEveryone}
          {...form.getInputProps("hoist", { type: "checkbox" })}
        />
        <Switch label="Allow anyone to @mention this role" disabled={isEveryone} {...form.getInputProps("mentionable", { type: "checkbox" })} />
        {withPermissions ? (
          <>
            <Divider label="Permissions" labelPosition="left" mt="sm" />
            {form.errors.permissions ? (
              <Text size="sm" c="red" role="alert">
                {form.errors.permissions}
              </Text>
            ) : null}
            <PermissionChecklist value={form.values.permissions} onChange={(value) => form.setFieldValue("permissions", value)} lockedReason={permissionLock} />
          </>
        ) : null}
        <Group justify="flex-end" mt="md" pos="sticky" bottom={0} py="sm" bg="var(--mantine-color-body)" style={{ zIndex: 2 }}>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={submitting} disabled={requireChanges && !form.isDirty()}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
