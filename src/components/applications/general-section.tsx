"use client";

import { Button, Group, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { bodyValidator, useSaveFeedback } from "~/components/forms/save-feedback.ts";
import { notifySuccess } from "~/components/forms/server-errors.ts";
import { ImageField } from "~/components/forms/image-field.tsx";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import {
  APPLICATION_DESCRIPTION_MAX,
  APPLICATION_NAME_MAX,
  ZApplicationEditBodySchema,
  type TApplicationEditBody,
} from "~/server/applications/application.schema.ts";
import { api } from "~/trpc/react.tsx";
import type { ApplicationDetail } from "./application-types.ts";
import { PublicKeyField } from "./public-key-field.tsx";

type Values = { name: string; description: string; icon: string | null | undefined };

const FIELDS = ["name", "description", "icon"] as const;
const validateBody = bodyValidator(ZApplicationEditBodySchema);

/** The fields that differ from the stored application; an untouched icon stays out. */
function changedBody(application: ApplicationDetail, values: Values): TApplicationEditBody {
  return {
    ...(values.name !== application.name && { name: values.name }),
    ...(values.description !== application.description && { description: values.description }),
    ...(values.icon !== undefined && { icon: values.icon }),
  };
}

/** Name, description and icon; validated by the schema the server uses, server errors shown on their field. */
export function GeneralSection({ application }: { application: ApplicationDetail }) {
  const utils = api.useUtils();
  const form = useForm<Values>({
    initialValues: { name: application.name, description: application.description, icon: undefined },
    validate: (values) => validateBody(changedBody(application, values)),
    validateInputOnBlur: ["name", "description"],
  });
  const feedback = useSaveFeedback(form, "Could not save the application", () => FIELDS);
  const edit = api.application.edit.useMutation({
    onSuccess: async (updated) => {
      utils.application.get.setData({ applicationId: application.id }, updated);
      const values = { name: updated.name, description: updated.description, icon: undefined };
      form.setInitialValues(values);
      form.setValues(values);
      notifySuccess(`${updated.name} was saved.`, "Application saved");
      await utils.application.list.invalidate();
    },
    onError: (error) => feedback.onServerError(error),
  });
  const body = changedBody(application, form.values);
  const unchanged = Object.keys(body).length === 0;

  return (
    <SectionCard id="general" title="General information" description="How your application appears to the guilds and players it reaches.">
      <form
        ref={feedback.ref}
        onSubmit={form.onSubmit((values) => edit.mutate({ applicationId: application.id, body: changedBody(application, values) }), feedback.onInvalid)}
        noValidate
      >
        <ImageField
          label="App icon"
          description="Square images look best, at least 256×256."
          shape="square"
          currentUrl={application.icon ? cdnImageUrl("app-icons", application.id, application.icon) : null}
          value={form.values.icon}
          onChange={(value) => form.setFieldValue("icon", value)}
          error={form.errors.icon}
        />
        <TextInput
          mt="md"
          label="Name"
          description={`1 to ${APPLICATION_NAME_MAX} characters.`}
          required
          maxLength={APPLICATION_NAME_MAX}
          {...form.getInputProps("name")}
        />
        <Textarea
          mt="md"
          label="Description"
          description={`Up to ${APPLICATION_DESCRIPTION_MAX} characters. Also set with PATCH /applications/@me.`}
          autosize
          minRows={3}
          maxRows={8}
          maxLength={APPLICATION_DESCRIPTION_MAX}
          {...form.getInputProps("description")}
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" disabled={unchanged || edit.isPending} onClick={() => form.reset()}>
            Discard changes
          </Button>
          <Button type="submit" loading={edit.isPending} disabled={unchanged}>
            Save changes
          </Button>
        </Group>
      </form>
      <PublicKeyField application={application} />
    </SectionCard>
  );
}
