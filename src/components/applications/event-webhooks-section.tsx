"use client";

import { Alert, Button, Checkbox, Group, Skeleton, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { fieldErrorsOf, notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconAlertTriangle } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import {
  EVENT_WEBHOOK_STATUS,
  EVENT_WEBHOOK_TYPES,
  type EventWebhookType,
  type TEventWebhookSettingsBody,
} from "~/server/event-webhooks/event-webhook.schema.ts";
import type { EventWebhookSettings } from "~/server/event-webhooks/event-webhook-settings.ts";
import { api } from "~/trpc/react.tsx";
import { EventWebhookLog } from "./event-webhook-log.tsx";
import { EVENT_TYPE_WORDS } from "./event-webhook-words.ts";

type Values = { url: string; enabled: boolean; types: EventWebhookType[] };

function valuesOf(settings: EventWebhookSettings): Values {
  return {
    url: settings.event_webhooks_url ?? "",
    enabled: settings.event_webhooks_status === EVENT_WEBHOOK_STATUS.ENABLED,
    types: settings.event_webhooks_types,
  };
}

/** Only what changed, so saving the types alone sends no PING. */
function changedBody(settings: EventWebhookSettings, values: Values): TEventWebhookSettingsBody {
  const before = valuesOf(settings);
  const url = values.url.trim();
  const sameTypes = before.types.length === values.types.length && before.types.every((type) => values.types.includes(type));
  return {
    ...(url !== before.url && { event_webhooks_url: url === "" ? null : url }),
    ...(values.enabled !== before.enabled && { event_webhooks_status: values.enabled ? EVENT_WEBHOOK_STATUS.ENABLED : EVENT_WEBHOOK_STATUS.DISABLED }),
    ...(!sameTypes && { event_webhooks_types: EVENT_WEBHOOK_TYPES.filter((type) => values.types.includes(type)) }),
  };
}

/** The application's outgoing event webhooks: the URL (verified by a PING on save), on/off, the event types, and the delivery log. */
export function EventWebhooksSection({ applicationId }: { applicationId: string }) {
  const settings = api.application.eventWebhooks.get.useQuery({ applicationId });
  return (
    <SectionCard
      id="event-webhooks"
      title="Event webhooks"
      description="Guildhall POSTs the events you choose to your URL, signed with your application's Ed25519 key (X-Signature-Ed25519 over X-Signature-Timestamp + body). Your URL must answer a PING with 204 and refuse a bad signature with 401."
    >
      {settings.isError ? (
        <QueryError error={settings.error} onRetry={() => void settings.refetch()} title="Could not load the event webhook settings" />
      ) : settings.isPending ? (
        <Skeleton h={220} />
      ) : (
        <SettingsForm key={JSON.stringify(settings.data)} applicationId={applicationId} settings={settings.data} />
      )}
      <EventWebhookLog applicationId={applicationId} />
    </SectionCard>
  );
}

function SettingsForm({ applicationId, settings }: { applicationId: string; settings: EventWebhookSettings }) {
  const utils = api.useUtils();
  const [values, setValues] = useState<Values>(() => valuesOf(settings));
  const [urlError, setUrlError] = useState<string | null>(null);
  const change = api.application.eventWebhooks.change.useMutation({
    onSuccess: async (updated) => {
      utils.application.eventWebhooks.get.setData({ applicationId }, updated);
      notifySuccess(
        updated.event_webhooks_status === EVENT_WEBHOOK_STATUS.ENABLED ? "Events will be sent to your URL." : "Event webhook settings saved.",
        "Event webhooks saved",
      );
      await utils.application.eventWebhooks.deliveries.invalidate({ applicationId });
    },
    onError: (error) => {
      const errors = fieldErrorsOf(error);
      const message = errors.event_webhooks_url ?? errors.event_webhooks_status ?? null;
      if (message) setUrlError(message);
      else notifyFailure("Could not save the event webhook settings", error);
    },
  });
  const body = changedBody(settings, values);
  const unchanged = Object.keys(body).length === 0;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setUrlError(null);
        change.mutate({ applicationId, body });
      }}
      noValidate
    >
      <Stack gap="md">
        {settings.event_webhooks_status === EVENT_WEBHOOK_STATUS.DISABLED_BY_FAILURE ? (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Turned off after persistent failure">
            Deliveries to your URL kept failing, so event webhooks were turned off. Fix your endpoint, then turn them on again: a new PING checks it first.
          </Alert>
        ) : null}
        <TextInput
          label="Endpoint URL"
          description="An http(s) URL. Saving a new one sends it a signed PING first; redirects are not followed."
          placeholder="https://example.com/discord/events"
          value={values.url}
          error={urlError}
          onChange={(event) => {
            const url = event.currentTarget.value;
            setUrlError(null);
            setValues((current) => ({ ...current, url }));
          }}
        />
        <Switch
          label="Send events"
          description="Turned on, each event of a chosen type is sent to your URL and retried with backoff for about 10 minutes when it fails."
          checked={values.enabled}
          onChange={(event) => {
            const enabled = event.currentTarget.checked;
            setValues((current) => ({ ...current, enabled }));
          }}
        />
        <Checkbox.Group label="Events" value={values.types} onChange={(types) => setValues((current) => ({ ...current, types }))}>
          <Stack gap="xs" mt="xs">
            {EVENT_WEBHOOK_TYPES.map((type) => (
              <Checkbox key={type} value={type} label={type} description={EVENT_TYPE_WORDS[type]} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button variant="default" disabled={unchanged || change.isPending} onClick={() => setValues(valuesOf(settings))}>
            Discard changes
          </Button>
          <Button type="submit" loading={change.isPending} disabled={unchanged}>
            Save event webhooks
          </Button>
        </Group>
        {change.isPending && body.event_webhooks_url ? (
          <Text size="sm" c="dimmed">
            Sending a PING to your URL…
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}
