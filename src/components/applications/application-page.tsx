"use client";

import { Group, Stack, Text, Title } from "@mantine/core";
import { BackLink } from "~/components/back-link.tsx";
import { PageSkeleton } from "~/components/page-skeleton.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { api } from "~/trpc/react.tsx";
import { ApplicationAvatar } from "./application-avatar.tsx";
import { ApplicationTabs, type ApplicationSection } from "./application-tabs.tsx";
import { CopyableId, BotSection } from "./bot-section.tsx";
import { EventWebhooksSection } from "./event-webhooks-section.tsx";
import { GatewaySection } from "./gateway-section.tsx";
import { GeneralSection } from "./general-section.tsx";
import { InstallLinkSection } from "./install-link-section.tsx";
import { IntentsSection } from "./intents-section.tsx";
import { OAuth2Section } from "./oauth2-section.tsx";
import { RateLimitsSection } from "./rate-limits-section.tsx";
import { Time } from "~/components/time/time.tsx";
import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";

/** The head of every page of one application: back to the list, icon, name, id, and its sections. */
export function ApplicationHeader({ applicationId, active }: { applicationId: string; active: ApplicationSection }) {
  const application = api.application.get.useQuery({ applicationId });
  return (
    <Stack gap="sm">
      <BackLink href="/applications">Applications</BackLink>
      {application.data ? (
        <Group gap="md" wrap="nowrap">
          <ApplicationAvatar application={application.data} size={56} radius="lg" />
          <Stack gap={2} miw={0}>
            <Title order={1} fz={26} style={{ overflowWrap: "anywhere" }}>
              {application.data.name}
            </Title>
            <Group gap="xs" c="dimmed" wrap="nowrap">
              <Text size="sm">Application ID</Text>
              <CopyableId label="application ID" value={application.data.id} />
            </Group>
            <Text size="sm" c="dimmed">
              Created <Time value={snowflakeTimestamp(application.data.id)} />
            </Text>
          </Stack>
        </Group>
      ) : null}
      <ApplicationTabs applicationId={applicationId} active={active} />
    </Stack>
  );
}

/** One application's settings: general information, OAuth2, bot, install link, privileged intents, gateway opt-ins, rate limits. */
export function ApplicationPage({ applicationId }: { applicationId: string }) {
  const application = api.application.get.useQuery({ applicationId });
  if (application.isError) return <QueryError error={application.error} onRetry={() => void application.refetch()} title="Could not load the application" />;
  if (application.isPending) return <PageSkeleton blocks={4} />;
  return (
    <Stack gap="lg" maw={960} mx="auto">
      <ApplicationHeader applicationId={applicationId} active="settings" />
      <GeneralSection key={application.data.id} application={application.data} />
      <OAuth2Section application={application.data} />
      <BotSection application={application.data} />
      <InstallLinkSection application={application.data} />
      <IntentsSection application={application.data} />
      <GatewaySection application={application.data} />
      <RateLimitsSection application={application.data} />
      <EventWebhooksSection applicationId={applicationId} />
    </Stack>
  );
}
