"use client";

import { Button, Card, EmptyState, Group, List, Modal, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ApplicationAvatar } from "~/components/applications/application-avatar.tsx";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconApps } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { Time } from "~/components/time/time.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";

type AuthorizedApp = RouterOutputs["oauth2"]["authorizedApps"][number];

/** A later approval is worth showing once it is more than the first one's own moment. */
const APPROVED_AGAIN_MS = 60_000;

/** The account's Authorized apps: what each application was granted and when, and deauthorizing it. */
export function AuthorizedApps() {
  const apps = api.oauth2.authorizedApps.useQuery();
  const [confirming, setConfirming] = useState<AuthorizedApp | null>(null);
  return (
    <Stack gap="lg">
      <PageHeader title="Authorized apps" description="Applications you let use your account. Deauthorizing one stops every token it holds at once." />
      {apps.error ? (
        <QueryError error={apps.error} onRetry={() => void apps.refetch()} />
      ) : !apps.data ? (
        <Skeleton h={120} />
      ) : apps.data.length === 0 ? (
        <EmptyState
          icon={<IconApps size={28} />}
          variant="light"
          title="No authorized apps"
          description="Applications you authorize through OAuth2 appear here."
        />
      ) : (
        <Stack gap="md">
          {apps.data.map((app) => (
            <Card key={app.application.id} padding="lg" component="section" aria-label={app.application.name} bg="var(--app-surface-bg)">
              <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  <ApplicationAvatar application={app.application} size={44} radius="md" />
                  <div style={{ minWidth: 0 }}>
                    <Title order={2} fz="lg" style={{ overflowWrap: "anywhere" }}>
                      {app.application.name}
                    </Title>
                    <Text size="xs" c="dimmed">
                      Authorized <Time value={app.authorizedAt} />
                      {Date.parse(app.updatedAt) - Date.parse(app.authorizedAt) > APPROVED_AGAIN_MS ? (
                        <>
                          , last approved <Time value={app.updatedAt} />
                        </>
                      ) : null}
                    </Text>
                  </div>
                </Group>
                <Button variant="light" color="red" onClick={() => setConfirming(app)}>
                  Deauthorize
                </Button>
              </Group>
              <Text size="sm" fw={600} mt="md" mb={4}>
                It can:
              </Text>
              <List size="sm" spacing={2}>
                {app.scopes.map((scope) => (
                  <List.Item key={scope.scope}>{scope.grants}</List.Item>
                ))}
              </List>
            </Card>
          ))}
        </Stack>
      )}
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title="Deauthorize application">
        {confirming ? <DeauthorizeConfirm app={confirming} onClose={() => setConfirming(null)} /> : null}
      </Modal>
    </Stack>
  );
}

function DeauthorizeConfirm({ app, onClose }: { app: AuthorizedApp; onClose: () => void }) {
  const utils = api.useUtils();
  const deauthorize = api.oauth2.deauthorize.useMutation({
    onSuccess: async () => {
      notifySuccess(`${app.application.name} can no longer use your account.`, "Deauthorized");
      onClose();
      await utils.oauth2.authorizedApps.invalidate();
    },
    onError: (error) => notifyFailure(`Could not deauthorize ${app.application.name}`, error),
  });
  return (
    <Stack gap="md">
      <Text size="sm">
        Deauthorize <b>{app.application.name}</b>? Its access to your account ends now, and it must ask you again to get it back. Bots it added stay in their
        servers.
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color="red" loading={deauthorize.isPending} onClick={() => deauthorize.mutate({ applicationId: app.application.id })}>
          Deauthorize
        </Button>
      </Group>
    </Stack>
  );
}
